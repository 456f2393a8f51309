// A fixed pool of equally sized buffers: the l receive buffers of the buffered model.
//
// The pool allocates count × size bytes once, in one page-aligned region, and registers
// that region once through the RegisterMemory function it is given (libfabric passes a
// function that calls fi_mr_reg; TCP and unit tests pass none). It never grows: when every
// buffer is out, acquire() waits until one comes back, which is how back-pressure reaches
// senders. Waiters are served first come, first served; free buffers are handed out last
// in, first out, so a busy flow keeps reusing a buffer that is still in the CPU's cache.
//
// Ownership and lifetimes: a Buffer is a move-only handle that returns its memory to the
// pool when destroyed. The pool must outlive every Buffer and every pending acquire().
// Threading: not thread-safe; use a pool from the thread running its executor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <asio/any_io_executor.hpp>

#include "transport/async.h"

namespace baton::transport {

// What a registration gives back: the descriptor to pass with I/O on that memory, the
// remote key, and a handle that undoes the registration when the last copy goes.
struct MemoryRegistration {
  void* descriptor = nullptr;
  std::uint64_t key = 0;
  std::shared_ptr<void> handle;
};

// Registers memory with a NIC (or does nothing). May throw on failure (e.g. the locked
// memory limit); the pool's constructor then throws.
using RegisterMemory = std::function<MemoryRegistration(std::span<std::byte>)>;

struct BufferPoolOptions {
  std::size_t buffer_count = 64;
  std::size_t buffer_size = std::size_t{1} << 20;

  static constexpr std::size_t max_count = 1 << 16;
  static constexpr std::size_t max_size = std::size_t{1} << 30;
  static constexpr std::size_t max_total = std::size_t{64} << 30;
};

class BufferPool;

class Buffer {
 public:
  Buffer() = default;
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  explicit operator bool() const noexcept { return pool_ != nullptr; }
  std::span<std::byte> bytes() const noexcept { return bytes_; }
  // The registration descriptor of the pool's region (null without registration).
  void* descriptor() const noexcept;

 private:
  friend class BufferPool;
  Buffer(BufferPool* pool, std::size_t index, std::span<std::byte> bytes) noexcept
      : pool_(pool), index_(index), bytes_(bytes) {}
  void release() noexcept;

  BufferPool* pool_ = nullptr;
  std::size_t index_ = 0;
  std::span<std::byte> bytes_;
};

class BufferPool {
 public:
  // Throws error::InvalidInput for a count or size of 0 or above the caps.
  BufferPool(asio::any_io_executor executor, BufferPoolOptions options, const RegisterMemory& register_memory = {});
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // A free buffer, waiting (in FIFO order) while none is free.
  asio::awaitable<Buffer> acquire();
  // A free buffer if there is one now.
  std::optional<Buffer> try_acquire();

  std::size_t buffer_count() const noexcept { return options_.buffer_count; }
  std::size_t buffer_size() const noexcept { return options_.buffer_size; }
  std::size_t available() const noexcept { return free_.size(); }
  // Most buffers ever out at once, and how many acquire() calls had to wait.
  std::size_t high_water() const noexcept { return high_water_; }
  std::size_t waits() const noexcept { return waits_; }

  const MemoryRegistration& registration() const noexcept { return registration_; }
  // Whether `bytes` lie wholly inside the pool's region (so its registration covers them).
  bool holds(std::span<const std::byte> bytes) const noexcept;

 private:
  friend class Buffer;
  struct Waiter;

  Buffer make_buffer(std::size_t index) noexcept;
  void give_back(std::size_t index) noexcept;

  BufferPoolOptions options_;
  std::unique_ptr<std::byte, void (*)(void*)> memory_;
  MemoryRegistration registration_;
  asio::any_io_executor executor_;
  std::vector<std::size_t> free_;  // a stack: the last buffer back is the next out
  std::deque<Waiter*> waiters_;    // suspended acquire() calls, oldest first
  std::size_t high_water_ = 0;
  std::size_t waits_ = 0;
};

}  // namespace baton::transport
