// Agents' answers to the coordinator's object queries (ObjectAnswer, with each name's
// file identity; coordinator/daemon/object_queries.h) and what the coordinator decides on
// them: which names are one file (jobs::FileIdentities), which destinations it stages
// (jobs::staged_destinations), which jobs it refuses for aliasing (collectives::aliased_files)
// and the ranges it checks (collectives::resolve_ranges). An answer is whatever an agent sends.
//
// Input: records of [node byte][length, 2 bytes little-endian][ObjectAnswer bytes]; the
// node byte's low bits pick n0, n1 or n2, its top bit gives up on the query after the
// record. The query is id 1. Bad input is ignored or baton::error::InvalidInput; an answer
// about a name not asked, a query that ends twice or never, aborts.
#include "coordinator/collectives/collective_job.h"
#include "coordinator/daemon/object_queries.h"
#include "coordinator/jobs/in_place_staging.h"
#include "error/error.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace bc = baton::coordinator;
namespace bj = baton::jobs;
namespace coll = baton::collectives;

namespace {

const std::vector<std::string> kNodes{"n0", "n1", "n2"};

// Every node registered and alive; what is sent goes nowhere.
class Directory : public bc::AgentDirectory {
 public:
  bool send(const std::string&, baton::protocol::Envelope) override { return true; }
  std::vector<bc::AgentInfo> agents() const override { return {}; }
  std::optional<bc::AgentInfo> find(const std::string& node) const override {
    bc::AgentInfo info;
    info.node = node;
    info.alive = true;
    return info;
  }
  bool alive(const std::string&) const override { return true; }
  std::uint64_t deaths() const override { return 0; }
};

// A multicast and a redistribution over names that may be one file: n0 and n1 share a
// data root; "./src.bin", "hard.bin" and "linked/in.bin" are other names of files read.
coll::CollectiveJob multicast() {
  coll::CollectiveJob job;
  job.kind = bj::JobKind::multicast;
  job.nodes = kNodes;
  job.messages = {{.source = "n0",
                   .file = "src.bin",
                   .offset = 0,
                   .length = {},
                   .destinations = {"n1", "n2"},
                   .dst_file = "copy.bin"},
                  {.source = "n2",
                   .file = "d/in.bin",
                   .offset = 16,
                   .length = 4096,
                   .destinations = {"n0"},
                   .dst_file = "linked/in.bin"}};
  return job;
}

std::vector<bj::TransferSpec> transfers() {
  return {{"n0", "src.bin", 0, 4096, "n1", "hard.bin", 0},
          {"n1", "./src.bin", 4096, 4096, "n2", "out.bin", 0},
          {"n2", "out.bin", 0, 100, "n2", "d/../out.bin", 50}};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const coll::CollectiveJob job = multicast();
  std::vector<std::pair<std::string, std::string>> asked = coll::objects_named(job);
  for (const bj::TransferSpec& t : transfers()) {
    for (const auto& object : {std::pair{t.src_node, t.src_file}, std::pair{t.dst_node, t.dst_file}}) {
      if (std::ranges::find(asked, object) == asked.end()) asked.push_back(object);
    }
  }
  const std::set<std::pair<std::string, std::string>> asked_set(asked.begin(), asked.end());

  Directory directory;
  bc::ObjectQueries queries;
  int ended = 0;
  bc::ObjectAnswers answers;
  const std::uint64_t id = queries.ask(directory, asked, [&](bc::ObjectAnswers a) {
    ++ended;
    answers = std::move(a);
  });
  std::size_t at = 0;
  while (ended == 0 && at + 3 <= size) {
    const std::uint8_t node = data[at];
    const std::size_t length = std::min<std::size_t>(data[at + 1] | (data[at + 2] << 8), size - at - 3);
    baton::protocol::ObjectAnswer answer;
    if (answer.ParseFromArray(data + at + 3, static_cast<int>(length))) queries.on_answer(kNodes[node % 3], answer);
    at += 3 + length;
    if (node & 0x80) queries.give_up(id);
  }
  queries.give_up(id);
  queries.give_up(id);  // nothing: it has ended
  if (ended != 1) std::abort();
  for (const auto& [object, facts] : answers.facts) {
    if (!asked_set.contains(object)) std::abort();
  }

  bj::LearntIdentities learnt;
  for (const auto& [object, facts] : answers.facts) learnt[object] = facts.identity;
  const bj::FileIdentities files(learnt, {{"n0", "files:m:1:1"}, {"n1", "files:m:1:1"}, {"n2", "files:m:1:2"}});
  // What an agent answered is the name's key, whatever it says.
  for (const auto& [object, identity] : learnt) {
    if (!identity.empty() && files.key(object.first, object.second) != identity) std::abort();
  }
  (void)coll::aliased_files(job, files);
  try {
    (void)bj::staged_destinations(transfers(), files);
  } catch (const baton::error::InvalidInput&) {
  }
  coll::CollectiveJob resolved = job;
  try {
    coll::resolve_ranges(resolved, [&](const std::string& node, const std::string& file) -> const coll::ObjectFacts* {
      const auto found = answers.facts.find({node, file});
      return found == answers.facts.end() ? nullptr : &found->second;
    });
  } catch (const baton::error::InvalidInput&) {
  }
  return 0;
}
