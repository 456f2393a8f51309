// Runs a real program for an integration test: feeds stdin, captures stdout and stderr,
// and kills it if it outlives a deadline.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace baton::test {

struct ProcessResult {
  int exit_code = -1;      // exit status, or -1 when killed by a signal
  int signal = 0;          // the signal that ended it, 0 if it exited
  bool timed_out = false;  // killed because it ran past the deadline
  std::string out;
  std::string err;
};

// Runs argv[0] (a path) with the arguments argv[1..].
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input = {},
                          std::chrono::milliseconds timeout = std::chrono::seconds(60));

}  // namespace baton::test
