// A step's record written while the next step runs (docs/journal.md, "A step's record
// trails its step"): the journal's write of one step record on a thread of its own, so that
// the store's commit (an fsync in SQLite, a raft commit in etcd) is off the step's critical
// path. At most one is in flight: the driver settles it before it writes the next step's
// record (and so before it releases the step after next), before it writes anything else of
// the job, and before it ends the job on the agents.
//
// Threading: start(), settle() and drain() on the io thread; the write itself on the writer
// thread; its end is posted back to the io thread, which then notifies `events`.
#pragma once

#include "coordinator/daemon/event_wait.h"
#include "coordinator/journal/journal.h"

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <asio/thread_pool.hpp>

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>

namespace baton::coordinator {

class TrailingRecord {
 public:
  TrailingRecord(asio::any_io_executor io, EventWait& events)
      : io_(std::move(io)), events_(std::make_shared<EventWait*>(&events)) {}
  ~TrailingRecord();  // joins the writer: a write already posted ends first
  TrailingRecord(const TrailingRecord&) = delete;
  TrailingRecord& operator=(const TrailingRecord&) = delete;

  // Starts writing `record` of job `job` to `store`; `journaled` runs on the io thread once
  // it is in the store (not when the write failed). error::Bug while another write is
  // in flight: settle() it first.
  void start(journal::Store& store, std::uint64_t job, const journal::StepRecord& record,
             std::function<void()> journaled);
  // Until the record in flight, if any, is in the store; rethrows what its write threw.
  asio::awaitable<void> settle();
  // Until no write is in flight, whatever became of it: for a job that already failed.
  asio::awaitable<void> drain();

 private:
  struct Write {
    bool ended = false;
    std::exception_ptr error;
  };

  asio::any_io_executor io_;
  // Whom a write's end wakes; the end's handler holds it weakly, so a handler that runs
  // after this object went (an io_context run again) wakes no one.
  std::shared_ptr<EventWait*> events_;
  std::shared_ptr<Write> in_flight_;  // null: none
  asio::thread_pool writer_{1};
};

}  // namespace baton::coordinator
