// The data path's one result type: what an operation of baton::transport (and of the
// agent's data plane above it) ends with. Like leveldb's Status, it is an error or OK and
// a line saying exactly what happened; unlike it, the error is a std::error_code (errors.h,
// or the operating system's), so callers compare it against errc values, and a result
// carries the operation's value on success.
//
//   Result<std::unique_ptr<Connection>> connected = co_await context.connect(address, timeout);
//   if (!connected.ok()) return fail(connected.describe());
//
// Nothing in a data path throws for a condition the network can cause. Records that
// report on a whole flow (FlowReport) and frames as received (ReceivedFrame) carry the same
// two fields, `error` and `detail`, beside their data.
#pragma once

#include <string>
#include <system_error>

namespace baton::transport {

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

}  // namespace baton::transport
