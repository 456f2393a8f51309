#include "coordinator/daemon/trailing_record.h"

#include "error/error.h"

#include <asio/post.hpp>

namespace baton::coordinator {

TrailingRecord::~TrailingRecord() { writer_.join(); }

void TrailingRecord::start(journal::Store& store, std::uint64_t job, const journal::StepRecord& record,
                           std::function<void()> journaled) {
  if (in_flight_) throw error::Bug("a step record is already in flight: settle it first");
  auto write = std::make_shared<Write>();
  in_flight_ = write;
  asio::post(writer_, [&store, job, record, journaled = std::move(journaled), write, io = io_,
                       events = std::weak_ptr<EventWait*>(events_)] {
    std::exception_ptr error;
    try {
      store.record_step(job, record);
    } catch (...) {
      error = std::current_exception();
    }
    asio::post(io, [write, error, journaled, events] {
      const std::shared_ptr<EventWait*> waiting = events.lock();
      if (!waiting) return;
      write->ended = true;
      write->error = error;
      if (!error && journaled) journaled();
      (*waiting)->notify();
    });
  });
}

asio::awaitable<void> TrailingRecord::settle() {
  if (!in_flight_) co_return;
  const std::shared_ptr<Write> write = in_flight_;
  co_await (*events_)->until([&] { return write->ended; }, Clock::time_point::max());
  in_flight_.reset();
  if (write->error) std::rethrow_exception(write->error);
}

asio::awaitable<void> TrailingRecord::drain() {
  try {
    co_await settle();
  } catch (const std::exception&) {
    // The job has already failed for another reason; this write's failure adds nothing.
  }
}

}  // namespace baton::coordinator
