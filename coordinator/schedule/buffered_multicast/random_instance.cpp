#include "coordinator/schedule/buffered_multicast/random_instance.h"

#include "error/error.h"

#include <algorithm>
#include <random>
#include <vector>

namespace baton::schedule::buffered_multicast {
namespace {

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  // Uniform in [0, n) for n >= 1 (modulo bias is irrelevant for test instances).
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(engine_() % n); }

 private:
  std::mt19937_64 engine_;
};

// Receivers that can still take a message, with O(1) removal.
class OpenReceivers {
 public:
  OpenReceivers(std::size_t first, std::size_t last, std::size_t capacity) : left_(last, 0), slot_(last, 0) {
    for (std::size_t q = first; q < last; ++q) {
      left_[q] = capacity;
      slot_[q] = open_.size();
      open_.push_back(static_cast<ProcessorId>(q));
    }
  }
  bool empty() const { return open_.empty(); }
  ProcessorId pick(Random& random) const { return open_[random.below(open_.size())]; }
  void use(ProcessorId q) {
    if (--left_[q] > 0) return;
    const ProcessorId moved = open_.back();
    open_[slot_[q]] = moved;
    slot_[moved] = slot_[q];
    open_.pop_back();
  }

 private:
  std::vector<std::size_t> left_;
  std::vector<std::size_t> slot_;
  std::vector<ProcessorId> open_;
};

}  // namespace

Problem random_instance(const RandomInstanceOptions& options) {
  if (options.senders > options.processors) {
    throw error::InvalidInput("random_instance: more senders than processors");
  }
  if (options.degree < 1 || options.buffers < 1 || options.max_fanout < 1) {
    throw error::InvalidInput("random_instance: degree, buffers and max_fanout must be >= 1");
  }
  Random random(options.seed);
  Problem problem{.processors = options.processors, .buffers = options.buffers, .messages = {}};
  std::vector<std::size_t> holds(options.senders, options.degree);
  if (!options.full_senders) {
    for (std::size_t& h : holds) h = 1 + random.below(options.degree);
  }
  OpenReceivers open(options.senders_receive ? 0 : options.senders, options.processors, options.degree);
  for (std::size_t bundle = 0; bundle < options.degree; ++bundle) {
    for (std::size_t p = 0; p < options.senders && !open.empty(); ++p) {
      if (bundle >= holds[p]) continue;
      Message message{.source = static_cast<ProcessorId>(p), .destinations = {}};
      const std::size_t wanted = 1 + random.below(options.max_fanout);
      for (std::size_t attempt = 0; attempt < 3 * wanted && message.destinations.size() < wanted && !open.empty();
           ++attempt) {
        const ProcessorId q = open.pick(random);
        if (q == p || std::ranges::find(message.destinations, q) != message.destinations.end()) {
          continue;
        }
        message.destinations.push_back(q);
        open.use(q);
      }
      if (!message.destinations.empty()) problem.messages.push_back(std::move(message));
    }
  }
  return problem;
}

}  // namespace baton::schedule::buffered_multicast
