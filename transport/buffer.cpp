#include "transport/buffer.h"

#include "error/error.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include <asio/steady_timer.hpp>

namespace baton::transport {

// A suspended acquire(): woken by cancelling its timer once give_back() has handed it a buffer.
struct BufferPool::Waiter {
  explicit Waiter(const asio::any_io_executor& executor) : wake(executor, asio::steady_timer::time_point::max()) {}
  asio::steady_timer wake;
  std::optional<std::size_t> index;
};

namespace {

constexpr std::size_t page = 4096;

void check(const BufferPoolOptions& options) {
  if (options.buffer_count == 0 || options.buffer_count > BufferPoolOptions::max_count) {
    throw error::InvalidInput("buffer pool: buffer_count must be in 1.." +
                              std::to_string(BufferPoolOptions::max_count));
  }
  if (options.buffer_size == 0 || options.buffer_size > BufferPoolOptions::max_size) {
    throw error::InvalidInput("buffer pool: buffer_size must be in 1.." + std::to_string(BufferPoolOptions::max_size));
  }
  if (options.buffer_count * options.buffer_size > BufferPoolOptions::max_total) {
    throw error::InvalidInput("buffer pool: buffer_count × buffer_size above 64 GiB");
  }
}

std::byte* allocate(const BufferPoolOptions& options) {
  check(options);
  const std::size_t bytes = options.buffer_count * options.buffer_size;
  void* memory = std::aligned_alloc(page, (bytes + page - 1) / page * page);
  if (memory == nullptr) throw std::bad_alloc();
  return static_cast<std::byte*>(memory);
}

}  // namespace

Buffer::Buffer(Buffer&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)), index_(other.index_), bytes_(other.bytes_) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    pool_ = std::exchange(other.pool_, nullptr);
    index_ = other.index_;
    bytes_ = other.bytes_;
  }
  return *this;
}

Buffer::~Buffer() { release(); }

void* Buffer::descriptor() const noexcept { return pool_ != nullptr ? pool_->registration().descriptor : nullptr; }

void Buffer::release() noexcept {
  if (pool_ != nullptr) std::exchange(pool_, nullptr)->give_back(index_);
}

BufferPool::BufferPool(asio::any_io_executor executor, BufferPoolOptions options, const RegisterMemory& register_memory)
    : options_(options), memory_(allocate(options), &std::free), executor_(std::move(executor)) {
  if (register_memory) {
    registration_ = register_memory({memory_.get(), options_.buffer_count * options_.buffer_size});
  }
  free_.reserve(options_.buffer_count);
  for (std::size_t i = options_.buffer_count; i > 0; --i) free_.push_back(i - 1);
}

BufferPool::~BufferPool() = default;

Buffer BufferPool::make_buffer(std::size_t index) noexcept {
  high_water_ = std::max(high_water_, options_.buffer_count - free_.size());
  return Buffer(this, index, {memory_.get() + index * options_.buffer_size, options_.buffer_size});
}

bool BufferPool::holds(std::span<const std::byte> bytes) const noexcept {
  // Compared as integers: pointers into different objects have no order in C++.
  const auto begin = reinterpret_cast<std::uintptr_t>(memory_.get());
  const auto end = begin + options_.buffer_count * options_.buffer_size;
  const auto first = reinterpret_cast<std::uintptr_t>(bytes.data());
  return !bytes.empty() && first >= begin && first <= end && bytes.size() <= end - first;
}

std::optional<Buffer> BufferPool::try_acquire() {
  if (free_.empty()) return std::nullopt;
  const std::size_t index = free_.back();
  free_.pop_back();
  return make_buffer(index);
}

asio::awaitable<Buffer> BufferPool::acquire() {
  if (auto buffer = try_acquire()) co_return std::move(*buffer);
  ++waits_;
  Waiter waiter(executor_);
  waiters_.push_back(&waiter);
  while (!waiter.index) co_await waiter.wake.async_wait(use_nothrow);
  co_return make_buffer(*waiter.index);
}

void BufferPool::give_back(std::size_t index) noexcept {
  if (waiters_.empty()) {
    free_.push_back(index);
    return;
  }
  Waiter* next = waiters_.front();
  waiters_.pop_front();
  next->index = index;
  next->wake.cancel();
}

}  // namespace baton::transport
