#include "coordinator/schedule/buffered_multicast/validator.h"

#include "error/error.h"

#include <algorithm>
#include <utility>

namespace baton::schedule::buffered_multicast {
namespace {

constexpr std::size_t kept_errors = 5;

void add_error(Validation& v, std::string text) {
  if (v.errors.size() < kept_errors) v.errors.push_back(std::move(text));
  ++v.error_count;
}

std::string where(std::size_t s) { return "sends[" + std::to_string(s) + "]"; }

// Each message's destinations, sorted, with a flag for "already delivered".
struct Deliveries {
  std::vector<std::vector<ProcessorId>> destinations;
  std::vector<std::vector<bool>> delivered;

  explicit Deliveries(const Problem& problem) {
    for (const Message& message : problem.messages) {
      destinations.push_back(message.destinations);
      std::ranges::sort(destinations.back());
      delivered.emplace_back(message.destinations.size(), false);
    }
  }
};

struct Arrival {
  ProcessorId receiver = 0;
  std::uint64_t round = 0;
  auto operator<=>(const Arrival&) const = default;
};

// Checks one send, marks what it delivers and records its arrivals.
void check_send(const Problem& problem, const Send& send, std::size_t s, Deliveries& deliveries,
                std::vector<Arrival>& arrivals, Validation& v) {
  if (send.message >= problem.messages.size()) {
    add_error(v, where(s) + ": no message " + std::to_string(send.message));
    return;
  }
  if (send.round < 1) add_error(v, where(s) + ": round " + std::to_string(send.round) + " < 1");
  if (send.destinations.empty()) add_error(v, where(s) + ": sends to nobody");
  const std::vector<ProcessorId>& wanted = deliveries.destinations[send.message];
  for (const ProcessorId q : send.destinations) {
    const auto it = std::ranges::lower_bound(wanted, q);
    if (it == wanted.end() || *it != q) {
      add_error(v, where(s) + ": processor " + std::to_string(q) + " is not a destination of message " +
                       std::to_string(send.message));
      continue;
    }
    auto flag = deliveries.delivered[send.message].begin() + (it - wanted.begin());
    if (*flag) {
      add_error(v, where(s) + ": message " + std::to_string(send.message) + " reaches processor " + std::to_string(q) +
                       " twice");
      continue;
    }
    *flag = true;
    arrivals.push_back({q, send.round});
  }
}

// A processor sends at most one message per round.
void check_senders(const Problem& problem, const Schedule& schedule, Validation& v) {
  std::vector<std::pair<ProcessorId, std::uint64_t>> slots;
  for (const Send& send : schedule.sends) {
    if (send.message < problem.messages.size()) {
      slots.emplace_back(problem.messages[send.message].source, send.round);
    }
  }
  std::ranges::sort(slots);
  for (std::size_t k = 1; k < slots.size(); ++k) {
    if (slots[k] == slots[k - 1]) {
      add_error(v, "processor " + std::to_string(slots[k].first) + " sends twice in round " +
                       std::to_string(slots[k].second));
    }
  }
}

void check_all_delivered(const Deliveries& deliveries, Validation& v) {
  for (std::size_t m = 0; m < deliveries.destinations.size(); ++m) {
    for (std::size_t k = 0; k < deliveries.destinations[m].size(); ++k) {
      if (!deliveries.delivered[m][k]) {
        add_error(v, "message " + std::to_string(m) + " never reaches processor " +
                         std::to_string(deliveries.destinations[m][k]));
      }
    }
  }
}

// Simulates every receiver's queue round by round over its sorted arrivals. Each simulated
// round takes one message; a round with an empty queue and no arrival is skipped. Returns
// the runs of consecutive rounds in which each receiver takes messages.
std::vector<std::pair<std::uint64_t, std::uint64_t>> simulate_queues(const std::vector<Arrival>& arrivals,
                                                                     std::size_t buffers, Validation& v) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> busy_runs;
  std::size_t next = 0;
  while (next < arrivals.size()) {
    const ProcessorId receiver = arrivals[next].receiver;
    std::size_t held = 0;
    std::uint64_t round = arrivals[next].round;
    std::uint64_t run_start = round;
    while (held > 0 || (next < arrivals.size() && arrivals[next].receiver == receiver)) {
      if (held == 0 && arrivals[next].round > round) {
        busy_runs.emplace_back(run_start, round - 1);
        round = arrivals[next].round;
        run_start = round;
      }
      while (next < arrivals.size() && arrivals[next].receiver == receiver && arrivals[next].round == round) {
        ++held;
        ++next;
      }
      if (held > buffers) {
        if (!v.first_overflow) v.first_overflow = Overflow{receiver, round, held};
        ++v.overflow_count;
      }
      v.max_held = std::max(v.max_held, held);
      --held;  // the processor takes one message off its queue
      v.rounds = std::max(v.rounds, round);
      ++round;
    }
    busy_runs.emplace_back(run_start, round - 1);
  }
  return busy_runs;
}

std::uint64_t union_length(std::vector<std::pair<std::uint64_t, std::uint64_t>> runs) {
  std::ranges::sort(runs);
  std::uint64_t covered = 0;
  std::uint64_t covered_to = 0;  // rounds 1..covered_to are counted already
  for (const auto& [first, last] : runs) {
    const std::uint64_t from = std::max(first, covered_to + 1);
    if (last >= from) {
      covered += last - from + 1;
      covered_to = last;
    }
  }
  return covered;
}

}  // namespace

std::string Validation::summary() const {
  if (!errors.empty()) return errors.front();
  if (first_overflow) {
    return "processor " + std::to_string(first_overflow->processor) + " holds " + std::to_string(first_overflow->held) +
           " messages in round " + std::to_string(first_overflow->round) + ", more than its buffers";
  }
  return "ok: " + std::to_string(rounds) + " rounds";
}

Validation validate(const Problem& problem, const Schedule& schedule) {
  Validation v;
  try {
    check(problem);
  } catch (const error::InvalidInput& e) {
    add_error(v, std::string("problem: ") + e.what());
    return v;
  }
  Deliveries deliveries(problem);
  std::vector<Arrival> arrivals;
  for (std::size_t s = 0; s < schedule.sends.size(); ++s) {
    check_send(problem, schedule.sends[s], s, deliveries, arrivals, v);
  }
  check_senders(problem, schedule, v);
  check_all_delivered(deliveries, v);
  std::ranges::sort(arrivals);
  v.busy_rounds = union_length(simulate_queues(arrivals, problem.buffers, v));
  return v;
}

}  // namespace baton::schedule::buffered_multicast
