// Shared by the configuration targets: the loaders read a path, so each input is written
// to a file in a private directory that also holds the secret files a configuration may
// name ("secret", "token"; relative paths are relative to the configuration file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace baton::fuzz {

// The directory lives as long as the process and is removed at exit.
class ConfigDirectory {
 public:
  ConfigDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "baton-fuzz-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    path_ = pattern;
    for (const char* name : {"secret", "token"}) std::ofstream(path_ / name) << "fuzzing-secret-of-32-bytes-long!\n";
  }
  ~ConfigDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ConfigDirectory(const ConfigDirectory&) = delete;
  ConfigDirectory& operator=(const ConfigDirectory&) = delete;
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::filesystem::path config_file(const std::uint8_t* data, std::size_t size) {
  static const ConfigDirectory dir;
  const std::filesystem::path file = dir.path() / "config.toml";
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return file;
}

}  // namespace baton::fuzz
