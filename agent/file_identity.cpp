#include "agent/file_identity.h"

#include <unistd.h>
#include <fstream>

namespace baton::agent {

std::string machine_id() {
  static const std::string id = [] {
    std::string machine;
    std::ifstream("/etc/machine-id") >> machine;
    if (machine.empty()) {
      char host[256] = {};
      ::gethostname(host, sizeof host - 1);
      machine = host;
    }
    return machine;
  }();
  return id;
}

std::string file_identity(const DataRoot& root, std::string_view name) {
  const ResolvedName resolved = root.resolve(name);
  std::string identity =
      "files:" + machine_id() + ":" + std::to_string(resolved.device) + ":" + std::to_string(resolved.inode);
  if (!resolved.rest.empty()) identity += "/" + resolved.rest;
  return identity;
}

}  // namespace baton::agent
