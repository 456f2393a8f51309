// Reading a daemon's TOML configuration file with toml++ (agent/config.cpp,
// coordinator/daemon/config.cpp). toml++ refuses bytes that are not UTF-8, integers beyond
// 64 bits and arrays or inline tables nested deeper than 256, each with its line; it does
// not bound how deep dotted keys and table headers nest ([a.a.a…], a.a.a… = 1), and
// toml++ 3.3 walks the tables they make by recursion, about 256 bytes of stack a level: a
// 70 KB file of `.a` overflows an 8 MB stack. Each level takes at least two bytes of the
// file, so a file of at most kMaxFileBytes nests at most 8 192 levels, about 2 MB of stack.
#pragma once

#include "error/error.h"

#include <toml++/toml.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>

namespace baton::config {

// Our configurations are a few KB (systemd/coordinator.toml, comments and all, is under 4).
inline constexpr std::size_t kMaxFileBytes = 16 * 1024;

// " (line 3)", or nothing where toml++ knows no line.
inline std::string line_of(const toml::source_region& where) {
  return where.begin.line == 0 ? "" : " (line " + std::to_string(where.begin.line) + ")";
}

// Reads and parses the file; error::InvalidInput saying what is wrong, with toml++'s line
// and column for a syntax error.
inline toml::table parse_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(kMaxFileBytes + 1, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!in && !in.eof()) throw error::InvalidInput("cannot be read");
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  if (bytes.size() > kMaxFileBytes) {
    throw error::InvalidInput("larger than " + std::to_string(kMaxFileBytes / 1024) +
                              " KiB, where a configuration takes a few KB");
  }
  try {
    return toml::parse(bytes, path.string());
  } catch (const toml::parse_error& e) {
    const toml::source_position& at = e.source().begin;
    throw error::InvalidInput(std::string(e.description()) + " (line " + std::to_string(at.line) + ", column " +
                              std::to_string(at.column) + ")");
  }
}

}  // namespace baton::config
