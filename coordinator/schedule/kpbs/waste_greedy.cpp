#include "coordinator/schedule/kpbs/waste_greedy.h"

#include "coordinator/schedule/kpbs/remaining_work.h"

#include <algorithm>
#include <vector>

namespace baton::schedule::kpbs {
namespace {

constexpr int kUrgentPerVertex = 2;

// Rules 1 and 2 of the order in waste_greedy.h; edges where both are 0 follow rules 3–4.
struct Urgency {
  double rank = 0;  // 4·due + busy: due (0..2) first, then busy (0..2)
  double work = 0;  // rule 3
  double left = 0;  // rule 4
  int index = 0;
  bool operator<(const Urgency& o) const {  // "comes first"
    if (rank != o.rank) return rank > o.rank;
    if (work != o.work) return work > o.work;
    if (left != o.left) return left > o.left;
    return index < o.index;
  }
};

// Builds the greedy matching of each candidate duration without sorting every edge each
// time: only the few urgent edges (rules 1–2) depend on t in a way that needs a sort. For
// the others, rules 3–4 are the edges by time left, longest first, cut into at most three
// runs (see `build`), so one sort per step serves every candidate.
class StepBuilder {
 public:
  StepBuilder(const RemainingWork& work, int k, const WasteGreedyOptions& options)
      : work_(work), k_(k), options_(options), edges_at_(static_cast<std::size_t>(work.vertices())),
        used_(edges_at_.size(), 0) {}

  // Call before the first `build` with no edges, then after every step with its edges:
  // keeps the edges sorted by time left (only those edges moved) and the per-vertex lists.
  void prepare(const std::vector<int>& changed) {
    const auto& edges = work_.edges();
    const auto left_of = [&edges](int i) { return edges[static_cast<std::size_t>(i)].left; };
    const auto longer_first = [&](int a, int b) { return left_of(a) != left_of(b) ? left_of(a) > left_of(b) : a < b; };
    if (by_left_.empty() && changed.empty()) {
      by_left_ = work_.live();
      std::sort(by_left_.begin(), by_left_.end(), longer_first);
      mark_.assign(edges.size(), 0);
      for (int i : by_left_) {  // in by_left_ order, so every list is sorted the same way
        edges_at_[static_cast<std::size_t>(edges[static_cast<std::size_t>(i)].sender)].push_back(i);
        edges_at_[static_cast<std::size_t>(edges[static_cast<std::size_t>(i)].receiver)].push_back(i);
      }
    } else {
      ++stamp_;
      for (int i : changed) mark_[static_cast<std::size_t>(i)] = stamp_;
      moved_.clear();
      for (int i : changed) {
        if (left_of(i) > 0) moved_.push_back(i);
      }
      std::sort(moved_.begin(), moved_.end(), longer_first);
      by_left_.erase(std::remove_if(by_left_.begin(), by_left_.end(),
                                    [this](int i) { return mark_[static_cast<std::size_t>(i)] == stamp_; }),
                     by_left_.end());
      merged_.clear();
      std::merge(by_left_.begin(), by_left_.end(), moved_.begin(), moved_.end(), std::back_inserter(merged_),
                 longer_first);
      by_left_.swap(merged_);
      for (int i : changed) {
        for (int v : {edges[static_cast<std::size_t>(i)].sender, edges[static_cast<std::size_t>(i)].receiver}) {
          auto& list = edges_at_[static_cast<std::size_t>(v)];
          if (left_of(i) > 0) {
            std::sort(list.begin(), list.end(), longer_first);
          } else {
            list.erase(std::find(list.begin(), list.end(), i));
          }
        }
      }
    }
    ends_by_left_.clear();
    for (int i : by_left_) {
      ends_by_left_.push_back(
          {i, edges[static_cast<std::size_t>(i)].sender, edges[static_cast<std::size_t>(i)].receiver});
    }
    by_load_.clear();
    degree_critical_.clear();
    active_senders_ = active_receivers_ = 0;
    for (int v = 0; v < work_.vertices(); ++v) {
      if (work_.degree(v) == 0) continue;
      ++(v < work_.senders() ? active_senders_ : active_receivers_);
      by_load_.push_back(v);
      if (work_.degree(v) == work_.eta_s()) degree_critical_.push_back(v);
    }
    std::sort(by_load_.begin(), by_load_.end(), [this](int a, int b) { return work_.load(a) > work_.load(b); });
  }

  // The candidate durations: the distinct remaining times, thinned to `count` spread
  // evenly over them in sorted order (both ends kept). Valid until the next call.
  const std::vector<double>& durations(int count) {
    times_.clear();
    for (int i : by_left_) {
      const double left = work_.edge(i).left;
      if (times_.empty() || times_.back() != left) times_.push_back(left);
    }
    if (times_.size() <= static_cast<std::size_t>(count)) return times_;
    thinned_.clear();
    for (int q = 0; q < count; ++q) {
      thinned_.push_back(
          times_[(times_.size() - 1) * static_cast<std::size_t>(q) / static_cast<std::size_t>(count - 1)]);
    }
    return thinned_;
  }

  // The greedy matching for duration t, as a step lasting its longest transfer, into
  // `step` (whose storage is reused).
  void build(double t, CandidateStep& step) {
    const auto& edges = work_.edges();
    ++stamp_;
    urgent_.clear();
    const auto consider = [&](int i) {
      if (mark_[static_cast<std::size_t>(i)] == stamp_) return;
      mark_[static_cast<std::size_t>(i)] = stamp_;
      urgent_.push_back(urgency(i, t));
    };
    // At a critical vertex only its longest few edges that qualify are considered: the
    // matching takes one edge per vertex, and these are the ones rule 2 or 3 ranks first.
    for (int v : degree_critical_) {
      const auto& list = edges_at_[static_cast<std::size_t>(v)];
      auto it = std::partition_point(list.begin(), list.end(),
                                     [&](int i) { return edges[static_cast<std::size_t>(i)].left > t; });
      for (int n = 0; it != list.end() && n < kUrgentPerVertex; ++it, ++n) consider(*it);
    }
    for (int v : by_load_) {
      if (work_.eta_d() - work_.load(v) >= t) break;
      const auto& list = edges_at_[static_cast<std::size_t>(v)];
      for (std::size_t n = 0; n < list.size() && n < static_cast<std::size_t>(kUrgentPerVertex); ++n) consider(list[n]);
    }
    // Only the head of the order is usually reached before the matching is full.
    const std::size_t head = std::min(urgent_.size(), static_cast<std::size_t>(2 * k_ + 4));
    std::nth_element(urgent_.begin(), urgent_.begin() + static_cast<std::ptrdiff_t>(head), urgent_.end());
    std::sort(urgent_.begin(), urgent_.begin() + static_cast<std::ptrdiff_t>(head));

    step.edges.clear();
    step.duration = 0;
    std::fill(used_.begin(), used_.end(), 0);
    // Full when it has k edges or covers every sender or every receiver with data.
    const int most = std::min({k_, active_senders_, active_receivers_});
    const auto full = [&] { return static_cast<int>(step.edges.size()) >= most; };
    const auto take = [&](int i, int sender, int receiver) {
      if (used_[static_cast<std::size_t>(sender)] || used_[static_cast<std::size_t>(receiver)]) return;
      used_[static_cast<std::size_t>(sender)] = used_[static_cast<std::size_t>(receiver)] = 1;
      step.edges.push_back(i);
      step.duration = std::max(step.duration, std::min(edges[static_cast<std::size_t>(i)].left, t));
    };
    for (std::size_t n = 0; n < urgent_.size() && !full(); ++n) {
      if (n == head) std::sort(urgent_.begin() + static_cast<std::ptrdiff_t>(head), urgent_.end());
      const LiveEdge& e = edges[static_cast<std::size_t>(urgent_[n].index)];
      take(urgent_[n].index, e.sender, e.receiver);
    }
    // Rules 3–4 for the rest. Without the ending bonus: time sent, then time left, both
    // descending, is the order by time left. With it, an edge ending within t sends
    // left + t/(2k), which beats the t of edges longer than t when left > t − t/(2k): the
    // order is those edges, then the edges longer than t, then the other ending ones.
    const auto longer = [&](double bound) {  // how many edges have more than `bound` left
      return static_cast<std::size_t>(
          std::partition_point(by_left_.begin(), by_left_.end(),
                               [&](int i) { return edges[static_cast<std::size_t>(i)].left > bound; }) -
          by_left_.begin());
    };
    const auto take_run = [&](std::size_t from, std::size_t to) {
      for (std::size_t n = from; n < to && !full(); ++n) {
        const Ends& e = ends_by_left_[n];
        if (mark_[static_cast<std::size_t>(e.id)] != stamp_) take(e.id, e.sender, e.receiver);
      }
    };
    if (options_.favour_ending) {
      const std::size_t end_long = longer(t), end_near = longer(t - t / (2.0 * k_));
      take_run(end_long, end_near);
      take_run(0, end_long);
      take_run(end_near, by_left_.size());
    } else {
      take_run(0, by_left_.size());
    }
  }

 private:
  Urgency urgency(int i, double t) const {
    const LiveEdge& e = work_.edges()[static_cast<std::size_t>(i)];
    const double sent = std::min(e.left, t);
    const bool ends = e.left <= t;
    Urgency u;
    for (int v : {e.sender, e.receiver}) {
      if (ends && work_.degree(v) == work_.eta_s()) u.rank += 4;  // rule 1
      const double slack = work_.eta_d() - work_.load(v);
      if (slack < t) u.rank += std::min(1.0, sent / (t - slack));  // rule 2
    }
    u.work = sent + (options_.favour_ending && ends ? t / (2.0 * k_) : 0.0);
    u.left = e.left;
    u.index = i;
    return u;
  }

  const RemainingWork& work_;
  int k_;
  const WasteGreedyOptions& options_;
  std::vector<std::vector<int>> edges_at_;  // live edges at each vertex, as by_left_
  std::vector<char> used_;                  // vertices in the matching being built
  struct Ends {
    int id, sender, receiver;
  };
  std::vector<int> by_left_;                       // live edges, longest time left first
  std::vector<Ends> ends_by_left_;                 // the same, with their ends (scanned per build)
  std::vector<int> by_load_;                       // vertices with edges, heaviest load first
  std::vector<int> degree_critical_;               // vertices whose degree is η_s
  int active_senders_ = 0, active_receivers_ = 0;  // with edges left
  std::vector<unsigned> mark_;                     // per edge: == stamp_ when urgent in this build
                                                   // (or, in prepare, changed by the last step)
  unsigned stamp_ = 0;
  std::vector<int> moved_, merged_;      // scratch for prepare
  std::vector<double> times_, thinned_;  // scratch for durations
  std::vector<Urgency> urgent_;
};

bool ends_an_edge(const RemainingWork& work, const CandidateStep& step) {
  return std::any_of(step.edges.begin(), step.edges.end(), [&](int i) { return work.edge(i).left <= step.duration; });
}

// A step and how it ranks: by score (less first), ties by time sent (more first).
struct Candidate {
  CandidateStep step;
  double score = 0;
  double sent = 0;
  bool before(const Candidate& o) const { return score != o.score ? score < o.score : sent > o.sent; }
};

double sent_by(const RemainingWork& work, const CandidateStep& step) {
  double sent = 0;
  for (int i : step.edges) sent += std::min(work.edge(i).left, step.duration);
  return sent;
}

}  // namespace

std::optional<Schedule> waste_greedy(const Problem& problem, const WasteGreedyOptions& options) {
  check(problem);
  RemainingWork work(problem);
  StepBuilder builder(work, problem.k, options);
  builder.prepare({});
  Schedule schedule;
  CandidateStep trial;
  Candidate best;
  std::vector<Candidate> ranked;
  double spent = 0;  // cost of the steps so far
  while (!work.done()) {
    // Every step keeps only its best candidate, except a first step taken further down
    // the ranking: that one ranks them all.
    const bool rank_all = schedule.steps.empty() && options.first_step_rank > 0;
    bool found = false;
    ranked.clear();
    for (double t : builder.durations(std::max(2, options.durations))) {
      builder.build(t, trial);
      if (!ends_an_edge(work, trial)) continue;
      const double sent = sent_by(work, trial);
      const double waste = work.waste(trial);
      const double score = options.choice == StepChoice::least_waste ? waste : waste / sent;
      if (rank_all) {
        std::sort(trial.edges.begin(), trial.edges.end());
        const bool seen = std::any_of(ranked.begin(), ranked.end(), [&](const Candidate& c) {
          return c.step.duration == trial.duration && c.step.edges == trial.edges;
        });
        if (!seen) ranked.push_back({trial, score, sent});
      } else if (!found || Candidate{{}, score, sent}.before(best)) {
        std::swap(best.step, trial);
        best.score = score;
        best.sent = sent;
        found = true;
      }
    }
    if (rank_all) {
      const auto pick = static_cast<std::size_t>(options.first_step_rank);
      if (pick >= ranked.size()) return std::nullopt;
      std::stable_sort(ranked.begin(), ranked.end(),
                       [](const Candidate& a, const Candidate& b) { return a.before(b); });
      std::swap(best, ranked[pick]);
    }
    const CandidateStep& chosen = best.step;
    Step step;
    step.transfers = work.apply(chosen);
    builder.prepare(chosen.edges);
    schedule.steps.push_back(std::move(step));
    spent += problem.beta + chosen.duration;
    if (spent + work.eta() >= options.give_up_at) return std::nullopt;
  }
  set_durations(schedule);
  return schedule;
}

}  // namespace baton::schedule::kpbs
