#include "coordinator/jobs/pipeline.h"

#include "coordinator/jobs/dataflow_timing.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace baton::jobs {
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

std::uint32_t piece_id(std::uint32_t id, std::size_t segments, std::size_t j) {
  return static_cast<std::uint32_t>((id - 1) * segments + j + 1);
}

std::size_t most_tasks(const DataflowPlan& plan) {
  std::size_t most = 0;
  for (const auto& [node, tasks] : plan) most = std::max(most, tasks.size());
  return most;
}

std::uint64_t shortest_task(const DataflowPlan& plan) {
  std::uint64_t shortest = UINT64_MAX;
  for (const auto& [node, tasks] : plan) {
    for (const DataflowTask& t : tasks) shortest = std::min(shortest, t.bytes());
  }
  return shortest;
}

}  // namespace

DataflowPlan segmented(const DataflowPlan& plan, std::size_t segments, std::uint64_t element) {
  if (segments == 0 || element == 0) throw std::logic_error("plan compiler: a pipeline of no segments");
  DataflowPlan out;
  for (const auto& [node, tasks] : plan) {
    std::vector<DataflowTask>& pieces = out[node];
    for (const DataflowTask& t : tasks) {
      if (t.bytes() % element != 0 || t.bytes() / element < segments) {
        throw std::logic_error("plan compiler: " + node + "'s task " + std::to_string(t.id) + " of " +
                               std::to_string(t.bytes()) + " bytes cannot be cut into " + std::to_string(segments) +
                               " segments of whole elements");
      }
      for (std::size_t j = 0; j < segments; ++j) {
        DataflowTask p = t;
        p.id = piece_id(t.id, segments, j);
        for (std::uint32_t& a : p.after) a = piece_id(a, segments, j);
        p.transfer = t.transfer * segments + j;
        p.region = piece(t.region, element, segments, j);
        p.peer_region = piece(t.peer_region, element, segments, j);
        for (Region& input : p.inputs) input = piece(input, element, segments, j);
        p.output = piece(t.output, element, segments, j);
        p.segment = static_cast<std::uint32_t>(j);
        p.planned_start = p.planned_end = 0;
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

double order_sends_by_readiness(DataflowPlan& plan, const CollectiveModel& model) {
  double best = predict(plan, model);
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
      std::vector<DataflowTask> merged;
      std::set<std::uint32_t> in;
      std::size_t next_send = 0, next_other = 0;
      while (next_send < sends.size() || next_other < others.size()) {
        const bool send_fits =
            next_send < sends.size() &&
            std::ranges::all_of(sends[next_send].after, [&](std::uint32_t a) { return in.contains(a); });
        DataflowTask& t = send_fits || next_other == others.size() ? sends[next_send++] : others[next_other++];
        in.insert(t.id);
        merged.push_back(std::move(t));
      }
      for (std::size_t i = 0; i < merged.size(); ++i) moved = moved || merged[i].id != original[i];
      tasks = std::move(merged);
    }
    if (!moved) break;
    double predicted = 0;
    try {
      predicted = predict(candidate, model);
    } catch (const std::logic_error&) {  // the new order deadlocks: keep the old one
      break;
    }
    if (predicted >= best) break;
    best = predicted;
    plan = std::move(candidate);
  }
  return best;
}

Pipeline fastest_pipeline(const DataflowPlan& plan, std::uint64_t element, const CollectiveModel& model,
                          std::size_t max_segments, std::size_t max_tasks) {
  Pipeline best{plan, 1, 0};
  best.predicted_seconds = order_sends_by_readiness(best.plan, model);
  const std::uint64_t shortest = shortest_task(plan);
  const std::size_t tasks = std::max<std::size_t>(1, most_tasks(plan));
  for (std::size_t s = 2; s <= max_segments; s *= 2) {
    if (shortest / s < std::max(min_segment_bytes, element) || tasks * s > max_tasks) break;
    Pipeline candidate{segmented(plan, s, element), s, 0};
    candidate.predicted_seconds = order_sends_by_readiness(candidate.plan, model);
    if (candidate.predicted_seconds < best.predicted_seconds) best = std::move(candidate);
  }
  return best;
}

}  // namespace baton::jobs
