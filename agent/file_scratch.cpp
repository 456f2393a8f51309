#include "agent/file_scratch.h"

#include "error/error.h"
#include "transport/checksum.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace baton::agent {
namespace {

// A node id as one directory name: itself when it is a plain name, else "%" and the hex of
// its hash (node ids may hold any byte).
std::string node_directory(const std::string& node_id) {
  const bool plain = !node_id.empty() && node_id.size() <= 100 && node_id.front() != '.' &&
                     std::all_of(node_id.begin(), node_id.end(), [](char c) {
                       return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                              c == '_' || c == '-';
                     });
  if (plain) return node_id;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(transport::xxh3_64(std::as_bytes(std::span(node_id)))));
  return std::string("%") + hex;
}

// One job's scratch files, removed with it.
class JobFiles final : public Storage {
 public:
  JobFiles(const DataRoot& root, std::string directory) : root_(root), directory_(std::move(directory)) {
    root_.make_directory(directory_);
  }
  ~JobFiles() override {
    try {
      root_.remove_tree(directory_);
    } catch (const std::exception&) {
      // Left for the next agent process of this node to remove (FileScratch's constructor).
    }
  }
  JobFiles(const JobFiles&) = delete;
  JobFiles& operator=(const JobFiles&) = delete;

  std::unique_ptr<transport::Source> source(const std::string& name) override {
    return std::make_unique<transport::FileSource>(root_.open_source(path(name)).release(), name);
  }
  std::unique_ptr<transport::Sink> sink(const std::string& name) override {
    return std::make_unique<transport::FileSink>(root_.open_destination(path(name)).release());
  }
  ObjectStatus status(const std::string& name) override {
    if (!root_.exists(path(name))) return {.exists = false, .size = 0, .error = {}, .identity = {}};
    return {.exists = true, .size = root_.file_size(path(name)), .error = {}, .identity = {}};
  }

 private:
  // Checked names only (check_scratch_name): one plain file name inside the directory.
  std::string path(const std::string& name) const {
    if (const std::optional<error::Refusal> refused = check_scratch_name(name))
      throw error::InvalidInput(refused->reason);
    return directory_ + "/" + name.substr(scratch_prefix.size());
  }

  const DataRoot& root_;
  std::string directory_;
};

}  // namespace

FileScratch::FileScratch(const DataRoot& root, const std::string& node_id)
    : root_(root), directory_(std::string(scratch_directory) + "/" + node_directory(node_id)) {
  try {
    root_.remove_tree(directory_);
  } catch (const std::exception& e) {
    throw error::SystemError(std::string("cannot remove the scratch files of an earlier agent: ") + e.what());
  }
}

std::unique_ptr<Storage> FileScratch::open(std::uint64_t job_number, const std::map<std::string, std::uint64_t>&) {
  const std::string directory = directory_ + "/" + std::to_string(job_number) + "." + std::to_string(++opened_);
  try {
    return std::make_unique<JobFiles>(root_, directory);
  } catch (const std::exception& e) {
    throw error::SystemError("cannot make the scratch directory " + directory + ": " + e.what());
  }
}

}  // namespace baton::agent
