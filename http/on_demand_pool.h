// cpp-httplib's task queue with threads started as connections need them, up to a cap:
// its own pool starts a fixed 8, so 8 slow clients were enough to stall every request.
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace baton::http {

class OnDemandPool : public httplib::TaskQueue {
 public:
  explicit OnDemandPool(std::size_t max_threads) : max_threads_(max_threads) {}
  ~OnDemandPool() override;

  // Runs `task` on an idle thread, on a new one while fewer than max_threads exist, or
  // (all busy) on the first to finish its task.
  void enqueue(std::function<void()> task) override;
  // Runs what is queued, then joins every thread.
  void shutdown() override;

 private:
  void work();

  const std::size_t max_threads_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> threads_;
  std::size_t idle_ = 0;
  bool stopping_ = false;
};

}  // namespace baton::http
