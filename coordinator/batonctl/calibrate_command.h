// `batonctl calibrate` and `batonctl calibrations` (docs/calibration.md): measure the
// platform between two groups of nodes and print d, D, β and k (-o json: the calibration's
// JSON, a contract with "d", "D", "beta" and "k" at its top); list the calibrations.
#pragma once

#include <CLI/CLI.hpp>

namespace baton::batonctl {

// Adds both subcommands; the exit code of the one that ran is written to *exit_code
// (0 done, 1 the calibration failed or the coordinator answered an error, 2 bad usage,
// 3 the coordinator cannot be reached).
void add_calibrate_commands(CLI::App& app, int* exit_code);

}  // namespace baton::batonctl
