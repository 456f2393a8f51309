#include "tests/support/temp_dir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace baton::test {

TempDir::TempDir(const std::string& prefix, const std::filesystem::path& parent) {
  std::string pattern = (parent / (prefix + ".XXXXXX")).string();
  if (!::mkdtemp(pattern.data())) {
    throw std::runtime_error("cannot create a temporary directory " + pattern + ": " + std::strerror(errno));
  }
  path = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path, ignored);
}

void TempDir::write(const std::string& name, const std::string& content) const {
  std::filesystem::create_directories((path / name).parent_path());
  std::ofstream out(path / name, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + (path / name).string());
}

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace baton::test
