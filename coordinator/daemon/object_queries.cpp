#include "coordinator/daemon/object_queries.h"

#include <algorithm>

namespace baton::coordinator {

std::uint64_t ObjectQueries::ask(AgentDirectory& agents,
                                 const std::vector<std::pair<std::string, std::string>>& objects, Done done) {
  const std::uint64_t id = next_++;
  Pending& query = pending_[id];
  query.done = std::move(done);
  for (const auto& [node, object] : objects) query.waiting[node].objects.push_back(object);
  for (auto it = query.waiting.begin(); it != query.waiting.end();) {
    // At most max_objects_per_query names in one query, each answered on its own.
    const std::vector<std::string>& names = it->second.objects;
    bool sent = true;
    for (std::size_t first = 0; sent && first < names.size(); first += max_objects_per_query) {
      protocol::Envelope envelope;
      envelope.mutable_object_query()->set_query(id);
      for (std::size_t i = first; i < std::min(names.size(), first + max_objects_per_query); ++i) {
        envelope.mutable_object_query()->add_objects(names[i]);
      }
      sent = agents.send(it->first, std::move(envelope));
      ++it->second.answers_due;
    }
    if (sent) {
      ++it;
    } else {
      query.answers.silent.push_back(it->first);
      it = query.waiting.erase(it);
    }
  }
  finish_if_answered(id);
  return id;
}

void ObjectQueries::on_answer(const std::string& node, const protocol::ObjectAnswer& answer) {
  const auto query = pending_.find(answer.query());
  if (query == pending_.end()) return;
  const auto asked = query->second.waiting.find(node);
  if (asked == query->second.waiting.end()) return;
  for (const protocol::ObjectInfo& info : answer.objects()) {
    if (std::ranges::find(asked->second.objects, info.object()) == asked->second.objects.end()) continue;
    query->second.answers.facts[{node, info.object()}] = {info.exists(), info.size(), info.error(), info.identity()};
  }
  if (--asked->second.answers_due == 0) query->second.waiting.erase(asked);
  finish_if_answered(answer.query());
}

void ObjectQueries::give_up(std::uint64_t id) {
  const auto query = pending_.find(id);
  if (query == pending_.end()) return;
  for (const auto& [node, objects] : query->second.waiting) query->second.answers.silent.push_back(node);
  query->second.waiting.clear();
  finish_if_answered(id);
}

void ObjectQueries::finish_if_answered(std::uint64_t id) {
  const auto query = pending_.find(id);
  if (query == pending_.end() || !query->second.waiting.empty()) return;
  Pending done = std::move(query->second);
  pending_.erase(query);
  done.done(std::move(done.answers));
}

}  // namespace baton::coordinator
