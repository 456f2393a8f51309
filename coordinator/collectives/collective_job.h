// The collective jobs (docs/collectives.md, "Jobs"): reduce, all-reduce, multicast and
// buffered multicast, as the coordinator holds them once their JSON is parsed. The JSON
// shapes are a contract; the coordinator's parser lives in coordinator/daemon/job_spec*.
#pragma once

#include "coordinator/collectives/collective_algorithm.h"
#include "coordinator/jobs/file_identities.h"
#include "coordinator/jobs/job_kind.h"
#include "error/refusal.h"
#include "protocol/baton.pb.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace baton::collectives {

// "f32" ... "u64" and "sum" ... "bxor" (docs/collectives.md).
std::string_view name(protocol::DataType dtype);
std::string_view name(protocol::ReduceOp op);
std::optional<protocol::DataType> parse_dtype(std::string_view name);
std::optional<protocol::ReduceOp> parse_op(std::string_view name);
std::size_t element_size(protocol::DataType dtype);
bool integer(protocol::DataType dtype);
// band, bor and bxor only make sense on integers.
bool integer_only(protocol::ReduceOp op);

// The array every node of a reduce or all-reduce holds: `count` elements of `dtype` at
// byte `offset` of `file`.
struct ArrayData {
  std::string file;
  std::uint64_t offset = 0;
  std::uint64_t count = 0;
  protocol::DataType dtype = protocol::DTYPE_UNSPECIFIED;

  std::uint64_t bytes() const { return count * element_size(dtype); }
};

// One message of a multicast or buffered multicast: `length` bytes at `offset` of `file`
// on `source`, written at offset 0 of `dst_file` on every destination. Without a length
// the message runs to the end of the file, which the coordinator asks the source before
// it accepts the job (resolve_ranges).
struct Message {
  std::string source;
  std::string file;
  std::uint64_t offset = 0;
  std::optional<std::uint64_t> length;
  std::vector<std::string> destinations;
  std::string dst_file;
};

struct CollectiveJob {
  jobs::JobKind kind = jobs::JobKind::reduce;
  std::vector<std::string> nodes;  // each once
  Algorithm algorithm = Algorithm::automatic;
  // reduce and allreduce
  std::string root;  // reduce: the node that ends with the result
  ArrayData data;
  protocol::ReduceOp op = protocol::OP_UNSPECIFIED;
  std::string result_file;
  // multicast and buffered-multicast
  std::vector<Message> messages;
  std::size_t buffers = 0;  // buffered-multicast: l, the messages a node may receive per round
};

// A file a node of the job reads (a range of it) or writes.
struct FileUse {
  std::string node;
  std::string file;
  bool writes = false;
};
std::vector<FileUse> file_uses(const CollectiveJob& job);

// Nothing unless the job writes a file that it also reads or writes under another name or on
// another node (files.key: "./x" and "x", a symlinked directory, a hard link, two nodes
// sharing a data root); then one line naming both nodes and both names. The same name
// on the same node is the parsers' business (an in-place reduce is fine, a multicast that
// writes the file it sends is not).
std::optional<error::Refusal> aliased_files(const CollectiveJob& job, const jobs::FileIdentities& files);
// What aliased_files reports: the first write (in file_uses order) that is, by files.key,
// a use of another (node, file), and the first such use; nothing when there is none.
// Linear in the job's uses.
std::optional<std::pair<FileUse, FileUse>> first_alias(const CollectiveJob& job, const jobs::FileIdentities& files);

// What a node's agent answered about one of its objects (ObjectQuery, docs/collectives.md).
struct ObjectFacts {
  bool exists = false;
  std::uint64_t size = 0;
  std::string error;     // why it cannot be read
  std::string identity;  // which file the name is (ObjectInfo.identity), "" if not said
};

// The objects the job reads, by node: each node's data file, each message's source file.
std::vector<std::pair<std::string, std::string>> objects_read(const CollectiveJob& job);
// Every object the job reads or writes, by node, each (node, name) once.
std::vector<std::pair<std::string, std::string>> objects_named(const CollectiveJob& job);

// Checks every range the job reads against the sizes its nodes reported and gives each
// message without a length the rest of its file. `facts(node, file)` returns what that
// node answered, or nullptr if it did not. Throws error::InvalidInput with one line naming
// the field, the node, the file and the sizes.
void resolve_ranges(CollectiveJob& job,
                    const std::function<const ObjectFacts*(const std::string& node, const std::string& file)>& facts);

}  // namespace baton::collectives
