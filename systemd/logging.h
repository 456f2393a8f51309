// The daemons' logs (docs/systemd.md, "Logs"): one line per event, with job, step and
// node in the text. Under systemd, when stderr is the journal (JOURNAL_STREAM names it),
// lines go to the journal with their priority and without our own timestamp, so
// `journalctl -u baton-agent -p warning` works; elsewhere, to stderr with a timestamp.
#pragma once

#include <string>

namespace baton::service {

// Sets spdlog's default logger named `name` for this process; `verbose` adds debug lines.
void setup_logging(const std::string& name, bool verbose);
// Applies a level name from a configuration reload: "info" or "debug". Returns false
// (changing nothing) for anything else.
bool set_log_level(const std::string& level);

// Whether stderr is connected to the journal (JOURNAL_STREAM matches its device:inode).
bool stderr_is_journal();

}  // namespace baton::service
