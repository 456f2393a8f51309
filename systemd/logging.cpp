#include "systemd/logging.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <systemd/sd-daemon.h>

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>

namespace baton::systemd {
namespace {

// The pattern flag %* : the message's priority as an sd-daemon prefix (sd-daemon(3)).
class PriorityPrefix final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& message, const std::tm&, spdlog::memory_buf_t& out) override {
    const std::string_view prefix = [&] {
      switch (message.level) {
        case spdlog::level::critical: return SD_CRIT;
        case spdlog::level::err: return SD_ERR;
        case spdlog::level::warn: return SD_WARNING;
        case spdlog::level::info: return SD_INFO;
        default: return SD_DEBUG;
      }
    }();
    out.append(prefix.data(), prefix.data() + prefix.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<PriorityPrefix>(); }
};

}  // namespace

bool stderr_is_journal() {
  const char* stream = std::getenv("JOURNAL_STREAM");
  if (stream == nullptr) return false;
  unsigned long long device = 0, inode = 0;
  char rest = 0;
  if (std::sscanf(stream, "%llu:%llu%c", &device, &inode, &rest) != 2) return false;
  struct stat st {};
  if (fstat(2, &st) != 0) return false;
  return static_cast<unsigned long long>(st.st_dev) == device && static_cast<unsigned long long>(st.st_ino) == inode;
}

void setup_logging(const std::string& name, bool verbose) {
  const bool journal = stderr_is_journal();
  // No colours into the journal; elsewhere spdlog colours only a terminal.
  auto logger = journal ? spdlog::stderr_logger_mt(name) : spdlog::stderr_color_mt(name);
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  if (journal) {
    formatter->add_flag<PriorityPrefix>('*').set_pattern("%*%v");
  } else {
    formatter->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  }
  logger->set_formatter(std::move(formatter));
  spdlog::set_default_logger(std::move(logger));
  spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::info);
}

log::Sink spdlog_sink(std::string prefix) {
  return [prefix = std::move(prefix)](log::Level level, std::string_view line) {
    const auto spd = level == log::Level::debug     ? spdlog::level::debug
                     : level == log::Level::info    ? spdlog::level::info
                     : level == log::Level::warning ? spdlog::level::warn
                                                    : spdlog::level::err;
    if (prefix.empty()) {
      spdlog::log(spd, "{}", line);
    } else {
      spdlog::log(spd, "{}: {}", prefix, line);
    }
  };
}

bool set_log_level(const std::string& level) {
  if (level == "info") {
    spdlog::set_level(spdlog::level::info);
  } else if (level == "debug") {
    spdlog::set_level(spdlog::level::debug);
  } else {
    return false;
  }
  return true;
}

}  // namespace baton::systemd
