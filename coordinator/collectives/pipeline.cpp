#include "coordinator/collectives/pipeline.h"

#include "coordinator/collectives/dataflow_timing.h"
#include "error/error.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace baton::collectives {
namespace {

// Element j·e/S of a task of e elements, in bytes: where piece j starts.
std::uint64_t piece_start(std::uint64_t length, std::uint64_t element, std::size_t segments, std::size_t j) {
  const std::uint64_t elements = length / element;
  // ⌊e·j/S⌋ without overflow: with e = q·S + r, it is q·j + ⌊r·j/S⌋, and r·j < S².
  const std::uint64_t q = elements / segments, r = elements % segments;
  return (q * j + r * j / segments) * element;
}

Region piece(const Region& r, std::uint64_t element, std::size_t segments, std::size_t j) {
  const std::uint64_t begin = piece_start(r.length, element, segments, j);
  const std::uint64_t end = piece_start(r.length, element, segments, j + 1);
  return Region{r.object, r.offset + begin, end - begin};
}

std::size_t most_tasks(const DataflowPlan& plan) {
  std::size_t most = 0;
  for (const auto& [node, tasks] : plan) most = std::max(most, tasks.size());
  return most;
}

std::uint64_t longest_task(const DataflowPlan& plan) {
  std::uint64_t longest = 0;
  for (const auto& [node, tasks] : plan) {
    for (const DataflowTask& t : tasks) longest = std::max(longest, t.bytes());
  }
  return longest;
}

// A node's list with its sends in `sends`' order and its other tasks in `others`' order,
// each send as early as what it waits for allows (an agent takes a task's waits only from
// earlier tasks of its list).
std::vector<DataflowTask> with_sends_in_order(std::vector<DataflowTask> sends, std::vector<DataflowTask> others) {
  std::vector<DataflowTask> merged;
  std::set<std::uint32_t> in;
  std::size_t next_send = 0, next_other = 0;
  while (next_send < sends.size() || next_other < others.size()) {
    const bool send_fits = next_send < sends.size() &&
                           std::ranges::all_of(sends[next_send].after, [&](std::uint32_t a) { return in.contains(a); });
    DataflowTask& t = send_fits || next_other == others.size() ? sends[next_send++] : others[next_other++];
    in.insert(t.id);
    merged.push_back(std::move(t));
  }
  return merged;
}

// Every node's sends ordered by segment + lag × stage, where a task's stage counts the
// receives on its chain of waits on its node (a reduce-scatter's send 0, the all-gather's
// send of the shard it folded 1): stage s + 1 of segment j goes beside stage s of segment
// j + lag, so a node moves its later stages along while it feeds its earlier ones.
DataflowPlan by_stage(DataflowPlan plan, std::size_t lag) {
  for (auto& [node, tasks] : plan) {
    std::map<std::uint32_t, std::size_t> stage;
    for (const DataflowTask& t : tasks) {
      std::size_t s = 0;
      for (const std::uint32_t a : t.after) s = std::max(s, stage.at(a));
      stage[t.id] = s + (t.kind == TaskKind::receive ? 1 : 0);
    }
    std::vector<DataflowTask> sends, others;
    for (DataflowTask& t : tasks) (t.kind == TaskKind::send ? sends : others).push_back(std::move(t));
    std::ranges::stable_sort(sends, [&](const DataflowTask& a, const DataflowTask& b) {
      return a.segment + lag * stage.at(a.id) < b.segment + lag * stage.at(b.id);
    });
    tasks = with_sends_in_order(std::move(sends), std::move(others));
  }
  return plan;
}

// The plan with every node that is the slower end of all its sends holding at most `window`
// of them unfinished: each waits for the send `window` places before it in the node's list.
DataflowPlan narrowed(DataflowPlan plan, const CollectiveModel& model, std::size_t window) {
  for (auto& [node, tasks] : plan) {
    const double rate = model.nodes.at(node).rate;
    const bool slower_end = std::ranges::all_of(
        tasks, [&](const DataflowTask& t) { return t.kind != TaskKind::send || rate <= model.nodes.at(t.peer).rate; });
    if (!slower_end) continue;
    std::vector<std::uint32_t> sends;
    for (DataflowTask& t : tasks) {
      if (t.kind != TaskKind::send) continue;
      if (sends.size() >= window) t.after.push_back(sends[sends.size() - window]);
      sends.push_back(t.id);
    }
  }
  return plan;
}

}  // namespace

DataflowPlan segmented(const DataflowPlan& plan, std::size_t segments, std::uint64_t element) {
  if (segments == 0 || element == 0) throw error::Bug("plan compiler: a pipeline of no segments");
  const std::uint64_t longest = longest_task(plan);
  // Pieces of about longest / segments bytes: a task of e elements gets
  // clamp(round(S · length / longest), 1, e) of them, so equal lengths get equal counts.
  const auto pieces_of = [&](const DataflowTask& t) {
    const double share = static_cast<double>(segments) * static_cast<double>(t.bytes()) / static_cast<double>(longest);
    return std::clamp<std::size_t>(static_cast<std::size_t>(std::llround(share)), 1, t.bytes() / element);
  };
  DataflowPlan out;
  for (const auto& [node, tasks] : plan) {
    std::map<std::uint32_t, const DataflowTask*> by_id;
    for (const DataflowTask& t : tasks) {
      if (t.bytes() % element != 0 || t.bytes() == 0) {
        throw error::Bug("plan compiler: " + node + "'s task " + std::to_string(t.id) + " of " +
                         std::to_string(t.bytes()) + " bytes cannot be cut into segments of whole elements");
      }
      by_id[t.id] = &t;
    }
    std::map<std::pair<std::uint32_t, std::size_t>, std::uint32_t> id_of;  // (task, piece) -> new id
    for (const DataflowTask& t : tasks) {
      for (std::size_t j = 0; j < pieces_of(t); ++j) id_of[{t.id, j}] = static_cast<std::uint32_t>(id_of.size() + 1);
    }
    std::vector<DataflowTask>& pieces = out[node];
    for (const DataflowTask& t : tasks) {
      const std::size_t count = pieces_of(t);
      for (std::size_t j = 0; j < count; ++j) {
        DataflowTask p = t;
        p.id = id_of.at({t.id, j});
        p.after.clear();
        for (const std::uint32_t a : t.after) {
          const auto waited = by_id.find(a);
          if (waited == by_id.end()) {
            throw error::Bug("plan compiler: " + node + "'s task " + std::to_string(t.id) + " waits for task " +
                             std::to_string(a) + ", which does not exist");
          }
          // The same bytes in the same pieces: piece j waits for piece j. Otherwise the
          // pieces cover other ranges, and each waits for the whole of what it waited for.
          const std::size_t waited_count = pieces_of(*waited->second);
          if (waited->second->bytes() == t.bytes() && waited_count == count) {
            p.after.push_back(id_of.at({a, j}));
          } else {
            for (std::size_t w = 0; w < waited_count; ++w) p.after.push_back(id_of.at({a, w}));
          }
        }
        p.transfer = t.transfer * segments + j;
        p.region = piece(t.region, element, count, j);
        p.peer_region = piece(t.peer_region, element, count, j);
        for (Region& input : p.inputs) input = piece(input, element, count, j);
        p.output = piece(t.output, element, count, j);
        p.segment = static_cast<std::uint32_t>(j * segments / count);  // its place in the message, in S-ths
        p.planned_start = p.planned_end = p.planned_rate = 0;
        pieces.push_back(std::move(p));
      }
    }
  }
  // Each receiver's stream: its incoming pieces laid end to end in its list order; each
  // send carries its receive's place.
  std::map<std::uint64_t, std::uint64_t> stream_of;  // transfer -> stream offset
  for (auto& [node, tasks] : out) {
    std::uint64_t stream = 0;
    for (DataflowTask& t : tasks) {
      if (t.kind != TaskKind::receive) continue;
      t.stream_offset = stream;
      stream_of[t.transfer] = stream;
      stream += t.region.length;
    }
  }
  for (auto& [node, tasks] : out) {
    for (DataflowTask& t : tasks) {
      if (t.kind == TaskKind::send) t.stream_offset = stream_of.at(t.transfer);
    }
  }
  return out;
}

double order_sends_by_readiness(DataflowPlan& plan, const CollectiveModel& model, std::size_t sends_at_once) {
  double best = predict(plan, model, sends_at_once);
  for (int round = 0; round < 4; ++round) {
    DataflowPlan candidate = plan;
    bool moved = false;
    for (auto& [node, tasks] : candidate) {
      std::vector<std::uint32_t> original;
      for (const DataflowTask& t : tasks) original.push_back(t.id);
      std::map<std::uint32_t, double> end_of;
      for (const DataflowTask& t : tasks) end_of[t.id] = t.planned_end;
      // When a task's inputs are there: the latest end of what it waits for.
      const auto ready = [&](const DataflowTask& t) {
        double at = 0;
        for (const std::uint32_t a : t.after) at = std::max(at, end_of.at(a));
        return at;
      };
      // The sends by readiness; the other tasks keep their order. An agent takes a task's
      // waits only from earlier tasks of its list, so each send goes in as soon as what it
      // waits for is in.
      std::vector<DataflowTask> sends, others;
      for (DataflowTask& t : tasks) (t.kind == TaskKind::send ? sends : others).push_back(std::move(t));
      std::ranges::stable_sort(sends, [&](const DataflowTask& a, const DataflowTask& b) {
        const double ra = ready(a), rb = ready(b);
        return ra != rb ? ra < rb : a.segment < b.segment;
      });
      std::vector<DataflowTask> merged = with_sends_in_order(std::move(sends), std::move(others));
      for (std::size_t i = 0; i < merged.size(); ++i) moved = moved || merged[i].id != original[i];
      tasks = std::move(merged);
    }
    if (!moved) break;
    double predicted = 0;
    try {
      predicted = predict(candidate, model, sends_at_once);
    } catch (const error::Bug&) {  // the new order deadlocks: keep the old one
      break;
    }
    if (predicted >= best) break;
    best = predicted;
    plan = std::move(candidate);
  }
  return best;
}

Pipeline fastest_pipeline(const DataflowPlan& plan, std::uint64_t element, const CollectiveModel& model,
                          std::size_t max_segments, std::size_t max_tasks, std::size_t max_sends_at_once,
                          std::uint64_t min_piece) {
  const std::uint64_t longest = longest_task(plan);
  const std::size_t tasks = std::max<std::size_t>(1, most_tasks(plan));
  // The fastest cut and order with `k` sends at once.
  const auto fastest_with = [&](std::size_t k) {
    std::optional<Pipeline> best;
    for (std::size_t s = 1; s <= max_segments; s *= 2) {
      if (s > 1 && (longest / s < std::max(min_piece, element) || tasks * s > max_tasks)) break;
      const DataflowPlan cut = s == 1 ? plan : segmented(plan, s, element);
      Pipeline candidate{cut, s, k, 0};
      candidate.predicted_seconds = order_sends_by_readiness(candidate.plan, model, k);
      if (!best || candidate.predicted_seconds < best->predicted_seconds) best = std::move(candidate);
      // Stages interleaved, a few lags (in segments) apart.
      for (const std::size_t lag : std::set<std::size_t>{1, std::max<std::size_t>(1, s / 8), s / 4, s / 2}) {
        if (s < 4 || lag == 0) continue;
        Pipeline staged{by_stage(cut, lag), s, k, 0};
        try {
          staged.predicted_seconds = predict(staged.plan, model, k);
        } catch (const error::Bug&) {  // this order deadlocks: not a candidate
          continue;
        }
        if (staged.predicted_seconds < best->predicted_seconds) best = std::move(staged);
      }
    }
    return *std::move(best);
  };
  Pipeline best = fastest_with(1);
  if (max_sends_at_once == 1) return best;
  const Pipeline wide = fastest_with(max_sends_at_once);
  if (wide.predicted_seconds < best.predicted_seconds) best = wide;
  // The slowest nodes' sends narrowed (pipeline.h).
  for (std::size_t window = 2; window <= 4 && window < wide.sends_at_once; ++window) {
    Pipeline narrow{narrowed(wide.plan, model, window), wide.segments, wide.sends_at_once, 0};
    narrow.predicted_seconds = predict(narrow.plan, model, narrow.sends_at_once);
    if (narrow.predicted_seconds < best.predicted_seconds) best = std::move(narrow);
  }
  return best;
}

}  // namespace baton::collectives
