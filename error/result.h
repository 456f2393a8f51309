// What an operation ends with where failing is an ordinary outcome, not an exception: the
// data path (connecting, listening, accepting, opening a transport, a libfabric operation,
// the data-plane handshake, the agent's links) and anything else that a network or a peer
// makes fail as a matter of course. Like leveldb's Status, it is an error or OK and a
// line saying exactly what happened; unlike it, the error is a std::error_code
// (transport::errc, or the operating system's), so callers compare it against errc
// values, and a result carries the operation's value on success.
//
//   error::Result<std::unique_ptr<Connection>> connected = co_await context.connect(address, timeout);
//   if (!connected.ok()) return fail(connected.describe());
#pragma once

#include <string>
#include <system_error>

namespace baton::error {

template <class T = void>
struct Result {
  std::error_code error;  // empty on success
  std::string detail;     // on error: what exactly failed, with what was tried
  T value{};              // meaningful on success only

  bool ok() const noexcept { return !error; }
  // "<error's message>: <detail>", or the message alone.
  std::string describe() const { return detail.empty() ? error.message() : error.message() + ": " + detail; }
};

// A result without a value.
template <>
struct Result<void> {
  std::error_code error;
  std::string detail;

  bool ok() const noexcept { return !error; }
  std::string describe() const { return detail.empty() ? error.message() : error.message() + ": " + detail; }
};

using Status = Result<void>;

}  // namespace baton::error
