// Where a plan's object names lead: files under the agent's data root (the daemon) or
// memory regions an application registered (the embedded API).
#pragma once

#include "transport/source.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace baton::agent {

// What a node answers when the coordinator asks about an object (ObjectQuery,
// agent/object_query.h): there and readable, with its size; missing (no error: nothing is
// wrong with the name); or why it cannot be read. And which file the name is, whether
// or not it exists or may be read (agent/file_identity.h; empty where names are exact,
// as a memory region's are, or when the name leads nowhere a plan could use).
struct ObjectStatus {
  bool exists = false;
  std::uint64_t size = 0;
  std::string error;
  std::string identity;
};

class Storage {
 public:
  virtual ~Storage() = default;
  // The object to read a send chunk from. Throws an error::Error naming it when it
  // cannot be opened.
  virtual std::unique_ptr<transport::Source> source(const std::string& name) = 0;
  // The object a received chunk is written into (created if missing, never truncated).
  virtual std::unique_ptr<transport::Sink> sink(const std::string& name) = 0;
  // Whether `name` is there to be read, its size and its identity. Never blocks (a FIFO
  // is refused, not opened for reading).
  virtual ObjectStatus status(const std::string& name) = 0;
  // A number that changes whenever what a plan check reads of this storage (which objects
  // there are, their sizes) may have changed, so that a plan checked at one version need
  // not be checked again at it; none when it may change at any moment (files).
  virtual std::optional<std::uint64_t> version() const { return std::nullopt; }
};

}  // namespace baton::agent
