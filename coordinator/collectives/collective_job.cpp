#include "coordinator/collectives/collective_job.h"

#include "coordinator/schedule/name_table.h"
#include "error/error.h"

#include <algorithm>
#include <limits>
#include <set>
#include <unordered_map>
#include <utility>

namespace baton::collectives {
namespace {

constexpr schedule::NameTable<protocol::DataType, 6> kDtypes{{
    {protocol::F32, "f32"},
    {protocol::F64, "f64"},
    {protocol::I32, "i32"},
    {protocol::I64, "i64"},
    {protocol::U32, "u32"},
    {protocol::U64, "u64"},
}};

constexpr schedule::NameTable<protocol::ReduceOp, 7> kOps{{
    {protocol::SUM, "sum"},
    {protocol::PROD, "prod"},
    {protocol::MIN, "min"},
    {protocol::MAX, "max"},
    {protocol::BAND, "band"},
    {protocol::BOR, "bor"},
    {protocol::BXOR, "bxor"},
}};

std::string sizes(std::uint64_t offset, std::uint64_t length, std::uint64_t size) {
  return "offset " + std::to_string(offset) + " + " + std::to_string(length) + " bytes is past its end (" +
         std::to_string(size) + " bytes)";
}

// What `node` said of `file`; throws naming `field` when it cannot be read at all.
const ObjectFacts& readable(
    const std::function<const ObjectFacts*(const std::string& node, const std::string& file)>& facts,
    const std::string& field, const std::string& node, const std::string& file) {
  const ObjectFacts* f = facts(node, file);
  if (f == nullptr) throw error::InvalidInput(field + ": " + node + " did not say whether it has " + file);
  if (!f->error.empty()) throw error::InvalidInput(field + ": " + node + " cannot read " + file + ": " + f->error);
  if (!f->exists) throw error::InvalidInput(field + ": " + node + " has no " + file);
  return *f;
}

// The (node, file) pairs of `uses` that `keep` selects, each once, in order of first use.
std::vector<std::pair<std::string, std::string>> distinct_objects(const std::vector<FileUse>& uses,
                                                                  const std::function<bool(const FileUse&)>& keep) {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::pair<std::string, std::string>> seen;
  for (const FileUse& use : uses) {
    if (keep(use) && seen.emplace(use.node, use.file).second) out.emplace_back(use.node, use.file);
  }
  return out;
}

}  // namespace

std::string_view name(protocol::DataType dtype) { return schedule::find_name(kDtypes, dtype).value_or("unknown"); }
std::string_view name(protocol::ReduceOp op) { return schedule::find_name(kOps, op).value_or("unknown"); }
std::optional<protocol::DataType> parse_dtype(std::string_view name) { return schedule::find_value(kDtypes, name); }
std::optional<protocol::ReduceOp> parse_op(std::string_view name) { return schedule::find_value(kOps, name); }

std::size_t element_size(protocol::DataType dtype) {
  return dtype == protocol::F64 || dtype == protocol::I64 || dtype == protocol::U64 ? 8 : 4;
}

bool integer(protocol::DataType dtype) { return dtype != protocol::F32 && dtype != protocol::F64; }

bool integer_only(protocol::ReduceOp op) { return op == protocol::BAND || op == protocol::BOR || op == protocol::BXOR; }

std::vector<FileUse> file_uses(const CollectiveJob& job) {
  std::vector<FileUse> uses;
  if (combines(job.kind)) {
    for (const std::string& n : job.nodes) {
      uses.push_back({n, job.data.file, false});
      if (job.kind == jobs::JobKind::allreduce || n == job.root) uses.push_back({n, job.result_file, true});
    }
    return uses;
  }
  for (const Message& m : job.messages) {
    uses.push_back({m.source, m.file, false});
    for (const std::string& d : m.destinations) uses.push_back({d, m.dst_file, true});
  }
  return uses;
}

// Linear in the job's uses (a 4096-node collective was checked in seconds, pair by pair,
// on the coordinator's event loop): each use's key is computed once, and per key only the
// first two distinct (node, file) pairs are kept, which is all the first conflicting use of
// any write needs.
std::optional<std::pair<FileUse, FileUse>> first_alias(const CollectiveJob& job, const jobs::FileIdentities& files) {
  const std::vector<FileUse> uses = file_uses(job);
  std::vector<std::string> keys;
  keys.reserve(uses.size());
  struct FirstTwo {
    std::size_t first = 0;                // the first use of the key
    std::optional<std::size_t> second{};  // the first use naming another (node, file)
  };
  std::unordered_map<std::string, FirstTwo> by_key;
  for (std::size_t i = 0; i < uses.size(); ++i) {
    keys.push_back(files.key(uses[i].node, uses[i].file));
    const auto [at, inserted] = by_key.try_emplace(keys.back(), FirstTwo{.first = i});
    const FileUse& first = uses[at->second.first];
    if (!inserted && !at->second.second && (first.node != uses[i].node || first.file != uses[i].file)) {
      at->second.second = i;
    }
  }
  for (std::size_t i = 0; i < uses.size(); ++i) {
    const FileUse& a = uses[i];
    if (!a.writes) continue;
    const FirstTwo& seen = by_key.at(keys[i]);
    const FileUse& first = uses[seen.first];
    const std::optional<std::size_t> other =
        first.node != a.node || first.file != a.file ? std::optional<std::size_t>(seen.first) : seen.second;
    if (other) return std::pair{a, uses[*other]};
  }
  return std::nullopt;
}

std::optional<error::Refusal> aliased_files(const CollectiveJob& job, const jobs::FileIdentities& files) {
  const std::optional<std::pair<FileUse, FileUse>> alias = first_alias(job, files);
  if (!alias) return std::nullopt;
  const auto& [a, b] = *alias;
  const std::string does = b.writes ? " writes" : " reads";
  if (b.node == a.node) {
    return "node " + a.node + " would write " + a.file + ", which is " + b.file + " that it" + does +
           " (one file under two names)";
  }
  const std::string storage = files.storage(a.node) == files.storage(b.node)
                                  ? " share their data root (" + files.storage(a.node) + ")"
                                  : " share files";
  return "nodes " + a.node + " and " + b.node + storage + ": " + a.node + " would write " + a.file + ", which " +
         b.node + does + (b.file == a.file ? (b.writes ? " too" : "") : " as " + b.file);
}

std::vector<std::pair<std::string, std::string>> objects_named(const CollectiveJob& job) {
  return distinct_objects(file_uses(job), [](const FileUse&) { return true; });
}

std::vector<std::pair<std::string, std::string>> objects_read(const CollectiveJob& job) {
  return distinct_objects(file_uses(job), [](const FileUse& use) { return !use.writes; });
}

void resolve_ranges(CollectiveJob& job,
                    const std::function<const ObjectFacts*(const std::string& node, const std::string& file)>& facts) {
  if (combines(job.kind)) {
    const std::uint64_t bytes = job.data.bytes();
    for (const std::string& node : job.nodes) {
      const ObjectFacts& f = readable(facts, "data.file", node, job.data.file);
      if (job.data.offset > f.size || bytes > f.size - job.data.offset) {
        throw error::InvalidInput("data: " + node + "'s " + job.data.file + ": " +
                                  sizes(job.data.offset, bytes, f.size) + "; count " + std::to_string(job.data.count) +
                                  " × " + std::to_string(element_size(job.data.dtype)) + " bytes does not fit");
      }
    }
    return;
  }
  const char* list = job.kind == jobs::JobKind::multicast ? "multicasts" : "messages";
  for (std::size_t i = 0; i < job.messages.size(); ++i) {
    Message& m = job.messages[i];
    const std::string field = std::string(list) + "[" + std::to_string(i) + "]";
    const ObjectFacts& f = readable(facts, field + ".file", m.source, m.file);
    if (m.offset > f.size) {
      throw error::InvalidInput(field + ": offset " + std::to_string(m.offset) + " is past the end of " + m.source +
                                "'s " + m.file + " (" + std::to_string(f.size) + " bytes)");
    }
    if (!m.length) m.length = f.size - m.offset;
    if (*m.length == 0) {
      throw error::InvalidInput(field + ": nothing to send: " + m.source + "'s " + m.file + " holds " +
                                std::to_string(f.size) + " bytes, none after offset " + std::to_string(m.offset));
    }
    if (*m.length > f.size - m.offset) {
      throw error::InvalidInput(field + ": " + m.source + "'s " + m.file + ": " + sizes(m.offset, *m.length, f.size));
    }
  }
}

}  // namespace baton::collectives
