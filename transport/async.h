// The asynchronous vocabulary of baton::transport: Asio C++20 coroutines.
//
// Every asynchronous operation of the transport is an asio::awaitable<T> that must be
// awaited (or co_spawn'ed) on the executor of the object it belongs to. Expected network
// conditions come back as std::error_code values inside T, never as exceptions
// (use_nothrow below turns Asio's completions into tuples whose first element is the
// error code).
#pragma once

#include <asio/awaitable.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/use_awaitable.hpp>

namespace baton::transport {

// Completion token: `auto [ec, n] = co_await op(..., use_nothrow);`
inline constexpr auto use_nothrow = asio::experimental::as_tuple(asio::use_awaitable);

}  // namespace baton::transport
