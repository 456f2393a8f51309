#include "coordinator/jobs/file_identities.h"

namespace baton::jobs {

std::string normal_name(std::string_view name) {
  std::string out;
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t slash = name.find('/', start);
    const std::size_t end = slash == std::string_view::npos ? name.size() : slash;
    const std::string_view part = name.substr(start, end - start);
    if (!part.empty() && part != ".") {
      if (!out.empty()) out += '/';
      out += part;
    }
    start = end + 1;
  }
  return out.empty() ? std::string(name) : out;
}

std::string FileIdentities::storage(const std::string& node) const {
  const auto found = storage_of_.find(node);
  return found == storage_of_.end() || found->second.empty() ? "node:" + node : found->second;
}

// The three kinds of key do not meet: an agent's identity holds no NUL byte, the others
// do (a name that holds one is refused by every agent).
std::string FileIdentities::key(const std::string& node, const std::string& name) const {
  static const std::string nul(1, '\0');
  if (name.starts_with("scratch:")) return "scratch" + nul + node + nul + name;
  const auto learnt = learnt_.find({node, name});
  if (learnt != learnt_.end() && !learnt->second.empty()) return learnt->second;
  return storage(node) + nul + normal_name(name);
}

}  // namespace baton::jobs
