#include "agent/rate_limited_log.h"

#include <string>

namespace baton::agent {

void RateLimitedLog::write(log::Level level, std::string_view line, Clock::time_point now) {
  if (!sink_) return;
  if (written_ == 0 || now - window_start_ >= window_) {
    window_start_ = now;
    written_ = 0;
  }
  if (written_ >= burst_) {
    ++held_back_;
    return;
  }
  ++written_;
  if (held_back_ == 0) {
    sink_(level, line);
    return;
  }
  sink_(level, std::string(line) + " (and " + std::to_string(held_back_) + " more like it not logged)");
  held_back_ = 0;
}

}  // namespace baton::agent
