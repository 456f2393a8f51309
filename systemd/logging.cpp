#include "systemd/logging.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/sinks/systemd_sink.h>
#include <spdlog/spdlog.h>

#include <sys/stat.h>

#include <cstdlib>
#include <cstdio>

namespace baton::service {

bool stderr_is_journal() {
  const char* stream = std::getenv("JOURNAL_STREAM");
  if (stream == nullptr) return false;
  unsigned long long device = 0, inode = 0;
  if (std::sscanf(stream, "%llu:%llu", &device, &inode) != 2) return false;
  struct stat st {};
  if (fstat(2, &st) != 0) return false;
  return static_cast<unsigned long long>(st.st_dev) == device && static_cast<unsigned long long>(st.st_ino) == inode;
}

void setup_logging(const std::string& name, bool verbose) {
  if (stderr_is_journal()) {
    // The journal stamps time and host; the sink passes spdlog's level as PRIORITY=.
    auto sink = std::make_shared<spdlog::sinks::systemd_sink_mt>(name);
    spdlog::set_default_logger(std::make_shared<spdlog::logger>(name, std::move(sink)));
    spdlog::set_pattern("%v");
  } else {
    spdlog::set_default_logger(spdlog::stderr_color_mt(name));  // logs on stderr, results on stdout
    spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  }
  spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::info);
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

}  // namespace baton::service
