// The command-line conventions of Baton's three programs: `--version` prints the
// program's name and the build's version; `--help` exits 0; a usage error prints one line
// that names what is wrong (an unknown command lists the valid ones) and exits 2.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace baton::cli {

// The usage-error exit status of all three programs (sysexits' EX_USAGE is 64; Baton uses
// the common 2, as grep and the shells do).
inline constexpr int kUsageError = 2;

// The build's version, e.g. "0.1.0" (CMake's project version).
std::string version();

// Adds --version to `app`. Call before adding subcommands' options, then parse with
// parse_command_line.
void add_version_flag(CLI::App& app, const std::string& program);

// Checks that an option's value is one of `names` ("{a,b,c}" in --help, as CLI::IsMember);
// a value that is not is named with the names and, when one is near it, the one it was
// probably meant to be (closest_word.h): "'dpp' is not one of snf, dp, bnb, binomial (did
// you mean 'dp'?)".
CLI::Validator one_of(std::vector<std::string> names);

// Parses argv. nullopt: go on and run; otherwise the exit status to return at once (0 after
// --help or --version, kUsageError after a usage error, written to `err` on one line
// followed by a pointer to --help).
std::optional<int> parse_command_line(CLI::App& app, const std::string& program, int argc, char** argv,
                                      std::ostream& out, std::ostream& err);

}  // namespace baton::cli
