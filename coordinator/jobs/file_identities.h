// Which file each of a job's object names is (docs/runtime.md, "In-place jobs"). Whether
// a job reads what it writes, or two of its nodes write one file, is decided on these
// keys, never on the names as written: "./x", "d//x", a symlinked directory, a hard link
// or a second agent over the same data root name one file many ways.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace baton::jobs {

// What the agents answered when asked about the job's objects (ObjectInfo.identity,
// agent/file_identity.h): (node, name) → the file's identity.
using LearntIdentities = std::map<std::pair<std::string, std::string>, std::string>;

// `name` without "." and empty components: "./a//b/." → "a/b". A name that is nothing else
// ("." alone) stays as written.
std::string normal_name(std::string_view name);

class FileIdentities {
 public:
  // `storage_of`: each node's storage id (Register.storage_id; "memory:..." for an
  // embedded agent's regions); a node missing from it, or with an empty id, shares its
  // storage with no other node.
  explicit FileIdentities(LearntIdentities learnt, std::map<std::string, std::string> storage_of)
      : learnt_(std::move(learnt)), storage_of_(std::move(storage_of)) {}

  // Equal for two (node, name) when they are one object: the identity the node's agent
  // answered for the name; else the node's storage and the name's normal form (what the
  // coordinator can tell without the agent). A scratch object ("scratch:...") is private
  // to its node and job.
  std::string key(const std::string& node, const std::string& name) const;
  // The node's storage id, or "node:<node>" when it shares its storage with nobody.
  std::string storage(const std::string& node) const;
  // Whether the node's objects are an embedded agent's memory regions.
  bool in_memory(const std::string& node) const { return storage(node).starts_with("memory:"); }

 private:
  LearntIdentities learnt_;
  std::map<std::string, std::string> storage_of_;
};

}  // namespace baton::jobs
