// Asking nodes about the objects a job would read or write, before the job is accepted
// (docs/collectives.md, "Jobs"; docs/runtime.md, "In-place jobs"): ObjectQuery per node,
// the answers gathered by query id.
// The HTTP thread that asked waits for them with a timeout and then gives up on the nodes
// that did not answer (give_up).
//
// Threading: everything runs on the io_context's thread, like the driver that owns it.
#pragma once

#include "coordinator/collectives/collective_job.h"
#include "coordinator/daemon/agent_directory.h"
#include "protocol/baton.pb.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace baton::coordinator {

// What the nodes said of their objects, and who did not answer.
struct ObjectAnswers {
  std::map<std::pair<std::string, std::string>, collectives::ObjectFacts> facts;  // (node, object)
  std::vector<std::string> silent;                                                // asked, never answered
};

// The most objects one ObjectQuery names (an agent answers at most 1024, its
// max_queried_objects); a node asked about more gets several queries, answered each on its
// own.
inline constexpr std::size_t max_objects_per_query = 1024;

class ObjectQueries {
 public:
  using Done = std::function<void(ObjectAnswers)>;

  // Sends each node of `objects` (node, object) a query naming its objects; `done` is
  // called once, when every node answered, or at give_up. A node without a session counts
  // as silent at once. Returns the query's id.
  std::uint64_t ask(AgentDirectory& agents, const std::vector<std::pair<std::string, std::string>>& objects, Done done);
  // An agent's answer. Ignored unless it answers a pending query that asked this node; an
  // object it was not asked about is ignored too (every field from the network is checked).
  void on_answer(const std::string& node, const protocol::ObjectAnswer& answer);
  // Ends query `id` now, the nodes that have not answered silent. Nothing if it has ended.
  void give_up(std::uint64_t id);

 private:
  struct Asked {
    std::vector<std::string> objects;
    std::size_t answers_due = 0;  // queries sent to the node and not answered yet
  };
  struct Pending {
    std::map<std::string, Asked> waiting;  // node → what it was asked
    ObjectAnswers answers;
    Done done;
  };
  void finish_if_answered(std::uint64_t id);

  std::uint64_t next_ = 1;
  std::map<std::uint64_t, Pending> pending_;
};

}  // namespace baton::coordinator
