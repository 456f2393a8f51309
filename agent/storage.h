// Where a plan's object names lead: files under the agent's data root (the daemon) or
// memory regions an application registered (the embedded API).
#pragma once

#include "transport/source.h"

#include <memory>
#include <string>

namespace baton::agent {

class Storage {
 public:
  virtual ~Storage() = default;
  // The object to read a send chunk from. Throws std::runtime_error naming it when it
  // cannot be opened.
  virtual std::unique_ptr<transport::Source> source(const std::string& name) = 0;
  // The object a received chunk is written into (created if missing, never truncated).
  virtual std::unique_ptr<transport::Sink> sink(const std::string& name) = 0;
};

}  // namespace baton::agent
