// One leveled logging vocabulary for every library (as gloo's common/logging.h is for
// gloo's): a library that has something to say takes a baton::log::Sink and calls it with
// a level and one line. The daemons' mains pass a sink that writes to spdlog
// (baton::systemd::spdlog_sink, so journald keeps the level); tests pass one that collects
// lines; an embedding program passes its own. Libraries never call spdlog themselves.
#pragma once

#include <functional>
#include <string_view>
#include <utility>

namespace baton::log {

enum class Level { debug, info, warning, error };

using Sink = std::function<void(Level, std::string_view line)>;

// "debug", "info", "warning", "error".
constexpr std::string_view name(Level level) noexcept {
  switch (level) {
    case Level::debug: return "debug";
    case Level::info: return "info";
    case Level::warning: return "warning";
    case Level::error: return "error";
  }
  return "info";
}

// Writes `line` at `level` to `sink` if there is one.
inline void write(const Sink& sink, Level level, std::string_view line) {
  if (sink) sink(level, line);
}

// A sink with one method per level, for classes that say many things.
class Logger {
 public:
  Logger() = default;
  Logger(Sink sink) : sink_(std::move(sink)) {}  // NOLINT: any sink is a logger

  void debug(std::string_view line) const { write(sink_, Level::debug, line); }
  void info(std::string_view line) const { write(sink_, Level::info, line); }
  void warning(std::string_view line) const { write(sink_, Level::warning, line); }
  void error(std::string_view line) const { write(sink_, Level::error, line); }
  // Whether anything listens (to skip building a line nobody reads).
  explicit operator bool() const noexcept { return static_cast<bool>(sink_); }

 private:
  Sink sink_;
};

}  // namespace baton::log
