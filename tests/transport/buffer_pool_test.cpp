#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <memory>
#include <vector>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>

#include "error/error.h"
#include "transport/buffer.h"

using namespace baton::transport;

BOOST_AUTO_TEST_SUITE(buffer_pool)

BOOST_AUTO_TEST_CASE(hands_out_distinct_buffers_until_empty) {
  asio::io_context io;
  BufferPool pool(io.get_executor(), {.buffer_count = 4, .buffer_size = 1000});
  std::vector<Buffer> taken;
  while (auto buffer = pool.try_acquire()) taken.push_back(std::move(*buffer));
  BOOST_TEST(taken.size() == 4u);
  BOOST_TEST(pool.available() == 0u);
  for (std::size_t i = 0; i < taken.size(); ++i) {
    BOOST_TEST(taken[i].bytes().size() == 1000u);
    std::fill(taken[i].bytes().begin(), taken[i].bytes().end(), static_cast<std::byte>(i));
  }
  for (std::size_t i = 0; i < taken.size(); ++i) {
    BOOST_TEST(std::all_of(taken[i].bytes().begin(), taken[i].bytes().end(),
                           [&](std::byte b) { return b == static_cast<std::byte>(i); }));
  }
  taken.pop_back();
  BOOST_TEST(pool.available() == 1u);
  BOOST_TEST(pool.high_water() == 4u);
}

// The fabric sender gathers a payload from the pool only when the pool's registration
// covers every byte of it.
BOOST_AUTO_TEST_CASE(holds_only_spans_wholly_inside_its_region) {
  asio::io_context io;
  BufferPool pool(io.get_executor(), {.buffer_count = 2, .buffer_size = 100});
  auto first = pool.try_acquire();
  auto second = pool.try_acquire();
  BOOST_TEST_REQUIRE((first && second));
  const std::span<const std::byte> a = first->bytes();
  const std::span<const std::byte> b = second->bytes();
  const std::byte* region = std::min(a.data(), b.data());
  BOOST_TEST(pool.holds(a));
  BOOST_TEST(pool.holds(a.subspan(7, 13)));
  BOOST_TEST(pool.holds({region, 200}));   // across both buffers, still the one region
  BOOST_TEST(!pool.holds({region, 201}));  // one byte past the end
  BOOST_TEST(!pool.holds({region + 200, 1}));
  BOOST_TEST(!pool.holds(a.first(0)));  // nothing to send from it
  std::vector<std::byte> elsewhere(10);
  BOOST_TEST(!pool.holds(elsewhere));
}

BOOST_AUTO_TEST_CASE(acquire_waits_for_a_release_in_fifo_order) {
  asio::io_context io;
  BufferPool pool(io.get_executor(), {.buffer_count = 1, .buffer_size = 64});
  auto held = pool.try_acquire();
  BOOST_TEST_REQUIRE(held.has_value());
  std::vector<int> order;
  std::vector<Buffer> got;
  for (int who = 0; who < 3; ++who) {
    asio::co_spawn(
        io,
        [&, who]() -> asio::awaitable<void> {
          Buffer buffer = co_await pool.acquire();
          order.push_back(who);
          got.push_back(std::move(buffer));
        },
        asio::detached);
  }
  io.poll();
  BOOST_TEST(order.empty());  // nobody gets a buffer while it is held: back-pressure
  held.reset();
  io.poll();
  BOOST_TEST(order == std::vector<int>{0});
  got.clear();
  io.poll();
  got.clear();
  io.poll();
  BOOST_TEST((order == std::vector<int>{0, 1, 2}));
  BOOST_TEST(pool.waits() == 3u);
  BOOST_TEST(pool.high_water() == 1u);
}

BOOST_AUTO_TEST_CASE(registers_the_whole_region_once_and_releases_it_last) {
  asio::io_context io;
  int calls = 0;
  std::size_t registered_bytes = 0;
  std::weak_ptr<void> handle;
  int token = 42;
  {
    BufferPool pool(io.get_executor(), {.buffer_count = 3, .buffer_size = 5000}, [&](std::span<std::byte> region) {
      ++calls;
      registered_bytes = region.size();
      auto owner = std::make_shared<int>(7);
      handle = owner;
      return MemoryRegistration{.descriptor = &token, .key = 99, .handle = owner};
    });
    BOOST_TEST(calls == 1);
    BOOST_TEST(registered_bytes == 15000u);
    auto buffer = pool.try_acquire();
    BOOST_TEST(buffer->descriptor() == static_cast<void*>(&token));
    BOOST_TEST(pool.registration().key == 99u);
    BOOST_TEST(!handle.expired());
  }
  BOOST_TEST(handle.expired());
}

BOOST_AUTO_TEST_CASE(refuses_sizes_outside_its_caps) {
  asio::io_context io;
  BOOST_CHECK_THROW(BufferPool(io.get_executor(), {.buffer_count = 0, .buffer_size = 64}), baton::error::InvalidInput);
  BOOST_CHECK_THROW(BufferPool(io.get_executor(), {.buffer_count = 1, .buffer_size = 0}), baton::error::InvalidInput);
  BOOST_CHECK_THROW(
      BufferPool(io.get_executor(), {.buffer_count = BufferPoolOptions::max_count + 1, .buffer_size = 64}),
      baton::error::InvalidInput);
  BOOST_CHECK_THROW(BufferPool(io.get_executor(), {.buffer_count = 1 << 16, .buffer_size = 1 << 30}),
                    baton::error::InvalidInput);
}

BOOST_AUTO_TEST_SUITE_END()
