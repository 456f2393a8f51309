#include "agent/file_storage.h"

#include "agent/file_identity.h"
#include "agent/plan_check.h"
#include "error/error.h"

#include <stdexcept>
#include <system_error>

namespace baton::agent {

std::unique_ptr<transport::Source> FileStorage::source(const std::string& name) {
  try {
    return std::make_unique<transport::FileSource>(root_.open_source(name).release(), name);
  } catch (const std::exception& e) {
    throw error::SystemError(std::string("source ") + e.what());
  }
}

std::unique_ptr<transport::Sink> FileStorage::sink(const std::string& name) {
  try {
    return std::make_unique<transport::FileSink>(root_.open_destination(name).release());
  } catch (const std::exception& e) {
    throw error::SystemError(std::string("destination ") + e.what());
  }
}

// Opened for reading as a step would (O_NONBLOCK, then refused unless a regular file), so
// the answer also says whether the agent may read it.
ObjectStatus FileStorage::status(const std::string& name) {
  if (const std::optional<error::Refusal> refused = check_file_name(name))
    return {.exists = false, .size = 0, .error = refused->reason, .identity = {}};
  ObjectStatus status = readable(name);
  try {
    status.identity = file_identity(root_, name);
  } catch (const std::exception&) {
    // Leads nowhere a plan may write (outside the root, through a dangling symlink): the
    // plan check refuses it; the coordinator goes by the name meanwhile.
  }
  return status;
}

ObjectStatus FileStorage::readable(const std::string& name) {
  try {
    const transport::FileSource file(root_.open_source(name).release(), name);
    return {.exists = true, .size = file.size(), .error = {}, .identity = {}};
  } catch (const error::SystemError& e) {
    if (e.code() == std::errc::no_such_file_or_directory) return {};
    return {.exists = false, .size = 0, .error = e.what(), .identity = {}};
  } catch (const std::exception& e) {
    return {.exists = false, .size = 0, .error = e.what(), .identity = {}};
  }
}

}  // namespace baton::agent
