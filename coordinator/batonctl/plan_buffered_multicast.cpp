// `batonctl plan buffered-multicast`: Procedures Coloring and Ordered-Coloring
// (the buffers paper) in docs/formats.md's shapes.
#include "coordinator/batonctl/plan_problems.h"
#include "coordinator/schedule/buffered_multicast/checked.h"
#include "coordinator/schedule/buffered_multicast/problem.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace baton::batonctl {
namespace {

namespace bm = baton::schedule::buffered_multicast;

// Limits of one plan. Planning is linear, so these bound the memory of the JSON documents
// (input and output) rather than planning time.
constexpr std::int64_t kMaxProcessors = 1'000'000;
constexpr std::int64_t kMaxBuffers = 1'000'000;
constexpr std::size_t kMaxMessages = 1'000'000;
constexpr std::size_t kMaxDestinationsInAll = 4'000'000;

std::string processor_out_of_range(std::int64_t processor, std::size_t processors) {
  return ": processor " + std::to_string(processor) + " is out of range (processors: " + std::to_string(processors) +
         ")";
}

// Reads messages[index]; `named_at[q]` holds (message, position) of the last mention of q,
// to report a duplicate destination by position.
bm::Message read_message(const Json& value, std::size_t index, std::size_t processors,
                         std::vector<std::pair<std::size_t, std::size_t>>& named_at, std::size_t& destinations_so_far) {
  const std::string path = element_path("messages", index);
  require_object(value, path, {"source", "destinations"});
  const std::string source_path = member_path(path, "source");
  const std::int64_t source = require_integer(require_member(value, path, "source"), source_path, 0, kMaxProcessors);
  if (static_cast<std::size_t>(source) >= processors) {
    throw InputError(source_path + processor_out_of_range(source, processors));
  }
  bm::Message message{.source = static_cast<bm::ProcessorId>(source), .destinations = {}};

  const std::string list_path = member_path(path, "destinations");
  // A message nobody needs would occupy a send slot for nothing: at least one destination.
  const Json& list = require_array(require_member(value, path, "destinations"), list_path, 1, processors - 1);
  destinations_so_far += list.size();
  if (destinations_so_far > kMaxDestinationsInAll) {
    throw InputError(list_path + ": the messages name more than " + std::to_string(kMaxDestinationsInAll) +
                     " destinations in all (the limit)");
  }
  for (std::size_t k = 0; k < list.size(); ++k) {
    const std::string at = element_path(list_path, k);
    const std::int64_t q = require_integer(list[k], at, 0, kMaxProcessors);
    if (static_cast<std::size_t>(q) >= processors) throw InputError(at + processor_out_of_range(q, processors));
    if (q == source) {
      throw InputError(at + ": processor " + std::to_string(q) +
                       " is the message's own source (it already holds the message)");
    }
    auto& [last_message, last_position] = named_at[static_cast<std::size_t>(q)];
    if (last_message == index) {
      throw InputError(at + ": processor " + std::to_string(q) + " repeats " + element_path(list_path, last_position));
    }
    last_message = index;
    last_position = k;
    message.destinations.push_back(static_cast<bm::ProcessorId>(q));
  }
  return message;
}

bm::Problem read_buffered_problem(const Json& input) {
  require_object(input, "", {"processors", "buffers", "messages"});
  bm::Problem problem;
  problem.processors = static_cast<std::size_t>(
      require_integer(require_member(input, "", "processors"), "processors", 1, kMaxProcessors));
  problem.buffers =
      static_cast<std::size_t>(require_integer(require_member(input, "", "buffers"), "buffers", 1, kMaxBuffers));
  const Json& messages = require_array(require_member(input, "", "messages"), "messages", 0, kMaxMessages);
  constexpr std::size_t nobody = static_cast<std::size_t>(-1);
  std::vector<std::pair<std::size_t, std::size_t>> named_at(problem.processors, {nobody, 0});
  std::size_t destinations_so_far = 0;
  problem.messages.reserve(messages.size());
  for (std::size_t m = 0; m < messages.size(); ++m) {
    problem.messages.push_back(read_message(messages[m], m, problem.processors, named_at, destinations_so_far));
  }
  return problem;
}

Json sends_json(const bm::Schedule& schedule) {
  Json sends = Json::array();
  for (const bm::Send& send : schedule.sends) {
    sends.push_back({{"message", send.message}, {"round", send.round}, {"destinations", send.destinations}});
  }
  return sends;
}

Json plan_buffered_multicast(const Json& input, const std::string& algorithm_name, std::uint64_t) {
  const bm::Problem problem = read_buffered_problem(input);
  const auto algorithm = bm::parse_algorithm(algorithm_name);
  if (!algorithm) throw InputError("--algo: unknown algorithm '" + algorithm_name + "'");
  const bm::CheckedPlan plan = bm::checked_plan(problem, *algorithm);
  return Json{{"problem", "buffered-multicast"}, {"algorithm", algorithm_name}, {"rounds", plan.rounds},
              {"degree", plan.degree},           {"bound", plan.bound},         {"sends", sends_json(plan.schedule)}};
}

}  // namespace

PlanProblem buffered_multicast_plan_problem() {
  return {.name = "buffered-multicast",
          .summary = "Multimessage multicasting with l receive buffers per processor (Coloring, Ordered-Coloring)",
          .details = R"help(Input: {"processors": n, "buffers": l, "messages": [{"source": p,
"destinations": [q, ...]}, ...]}. Processors are 0..n-1; every message has at least
one destination, none twice and not its own source.
Rules: rounds start at 1; a processor sends at most one message per round and a send
reaches its destinations in that round; arrivals join the receiver's queue, which may
then hold at most l messages; each round a processor takes one message off its queue.
Limits: at most 1000000 processors, 1000000 buffers, 1000000 messages and 4000000
destinations in all.
Algorithms: ordered-coloring (default; at most d*ceil(d/l) + l - 1 rounds, i.e.
d^2/l + l - 1) and coloring (at most ceil(d/l)*(d + l - 1) rounds), where d is the most
messages any processor sends or receives. Both run in time linear in the input.
Output: {"problem", "algorithm", "rounds", "degree", "bound", "sends":
[{"message", "round", "destinations"}]}; rounds is the last round any processor
takes a message; bound = d*ceil(d/l) + l - 1. The procedures color each (message,
destination) pair, so a message may be sent in several rounds, each send to the
destinations it lists; sends are listed by round, then message.
Example:
  echo '{"processors": 4, "buffers": 2, "messages": [{"source": 0,
  "destinations": [2, 3]}, {"source": 1, "destinations": [2]}]}' |
  batonctl plan buffered-multicast -)help",
          .algorithms = bm::algorithm_names(),
          .default_algorithm = std::string(bm::name(bm::kDefaultAlgorithm)),
          .plan = plan_buffered_multicast};
}

}  // namespace baton::batonctl
