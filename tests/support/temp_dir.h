// A real temporary directory for a test, removed with everything in it when the object
// goes: `TempDir dir;` then files under `dir.path`. Its name starts with `prefix` (so a
// directory left by a killed test says whose it is) and it lives under `parent` (the
// system's temporary directory unless a test needs another place, such as /run).
#pragma once

#include <filesystem>
#include <string>

namespace baton::test {

struct TempDir {
  std::filesystem::path path;

  explicit TempDir(const std::string& prefix = "baton-test",
                   const std::filesystem::path& parent = std::filesystem::temp_directory_path());
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `content` to `name` under the directory, creating parents.
  void write(const std::string& name, const std::string& content) const;
};

// The whole content of the file at `path` ("" if it cannot be read).
std::string read_all(const std::filesystem::path& path);

}  // namespace baton::test
