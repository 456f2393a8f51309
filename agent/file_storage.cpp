#include "agent/file_storage.h"

#include <stdexcept>

namespace baton::agent {

std::unique_ptr<transport::Source> FileStorage::source(const std::string& name) {
  try {
    return std::make_unique<transport::FileSource>(root_.open_source(name).release(), name);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("source ") + e.what());
  }
}

std::unique_ptr<transport::Sink> FileStorage::sink(const std::string& name) {
  try {
    return std::make_unique<transport::FileSink>(root_.open_destination(name).release());
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("destination ") + e.what());
  }
}

}  // namespace baton::agent
