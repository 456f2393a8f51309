#include "http/on_demand_pool.h"

namespace baton::http {

OnDemandPool::~OnDemandPool() { shutdown(); }

void OnDemandPool::enqueue(std::function<void()> task) {
  {
    const std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
    // Threads stay until shutdown: the pool keeps the peak it needed, at most max_threads_.
    if (idle_ < tasks_.size() && threads_.size() < max_threads_) threads_.emplace_back([this] { work(); });
  }
  wake_.notify_one();
}

void OnDemandPool::shutdown() {
  std::vector<std::thread> threads;
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    threads.swap(threads_);
  }
  wake_.notify_all();
  for (std::thread& t : threads) t.join();
}

void OnDemandPool::work() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      ++idle_;
      wake_.wait(lock, [this] { return !tasks_.empty() || stopping_; });
      --idle_;
      if (tasks_.empty()) return;  // stopping, nothing left to run
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task();
  }
}

}  // namespace baton::http
