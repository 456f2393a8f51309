// A log for what a peer can make happen as often as it likes (refused data connections,
// forged frames): at most `burst` lines per `window` reach the sink; the ones held back are
// counted and said in one line with the next that gets through, so a flood of forgeries is
// seen without filling the journal.
#pragma once

#include "log/log.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

namespace baton::agent {

class RateLimitedLog {
 public:
  using Clock = std::chrono::steady_clock;

  RateLimitedLog(std::size_t burst, Clock::duration window) : burst_(burst), window_(window) {}

  void set_sink(log::Sink sink) { sink_ = std::move(sink); }
  // Writes `line` at `level` unless `burst` lines were written in the window that holds
  // `now` (the first line's time opens a window; a later one past its end opens the next).
  void write(log::Level level, std::string_view line, Clock::time_point now = Clock::now());
  // Lines held back since the last one written.
  std::uint64_t held_back() const noexcept { return held_back_; }

 private:
  std::size_t burst_;
  Clock::duration window_;
  log::Sink sink_;
  Clock::time_point window_start_{};
  std::size_t written_ = 0;  // in the current window
  std::uint64_t held_back_ = 0;
};

}  // namespace baton::agent
