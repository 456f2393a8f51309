// The daemons' logs (docs/systemd.md, "Logs"): one line per event, with job, step and
// node in the text. When stderr is the journal (systemd sets JOURNAL_STREAM to its
// device:inode), each line starts with its sd-daemon priority ("<6>" info, "<4>"
// warning, ...) and carries no timestamp of ours: journald stamps it and keeps the level,
// so `journalctl -u baton-agent -p warning` works. Elsewhere lines keep the usual
// "2026-01-02T03:04:05.678 info ..." format.
#pragma once

#include <string>

#include "log/log.h"

namespace baton::systemd {

// Sets spdlog's default logger named `name` for this process, writing to stderr;
// `verbose` adds debug lines.
void setup_logging(const std::string& name, bool verbose);
// Applies a level name from the configuration: "info" or "debug". Returns false
// (changing nothing) for anything else.
bool set_log_level(const std::string& level);

// A baton::log::Sink writing to spdlog's default logger at the line's level, each line
// prefixed with "`prefix`: " (a node's id) unless `prefix` is empty.
log::Sink spdlog_sink(std::string prefix);

// Whether stderr is connected to the journal (JOURNAL_STREAM matches its device:inode).
bool stderr_is_journal();

}  // namespace baton::systemd
