// What every part throws (docs/design.md, "One vocabulary"): one hierarchy with one base,
// as gloo has one exception base. error::Error derives from std::runtime_error, so a
// `catch (const std::exception&)` that prints what() and carries on still catches it; its
// subclasses say the kind, and each part's named errors (json::InputError,
// protocol::ChannelError, coupling::Error, ...) derive from one of them. Every message is
// one line naming what is wrong.
//
//   throw error::InvalidInput("matrix[1][2]: must be >= 0");
//   throw error::Bug("schedule fails its own validation: " + why);
//   throw error::SystemError(std::error_code(errno, std::generic_category()), "open " + path);
//
// std::bad_alloc is the runtime's and stays as it is.
#pragma once

#include <stdexcept>
#include <string>
#include <system_error>

namespace baton::error {

// The base: catch it to handle anything Baton throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What was given cannot be taken: a caller's value out of range, a document or file that
// says something impossible, a request for what is not there ("no job 7"). The caller or
// the user can fix it; the message names the value.
class InvalidInput : public Error {
 public:
  using Error::Error;
};

// A broken invariant of Baton's own (a schedule that fails its own validation, a state
// that cannot happen): a bug, never the input's fault.
class Bug : public Error {
 public:
  using Error::Error;
};

// The operating system or a library below Baton failed (a file that cannot be opened, a
// socket, OpenSSL, GLPK). With a code, what() is "<what>: <the code's message>", as
// std::system_error says it; a library that gives no code leaves code() empty.
class SystemError : public Error {
 public:
  SystemError(std::error_code code, const std::string& what) : Error(what + ": " + code.message()), code_(code) {}
  explicit SystemError(const std::string& what) : Error(what) {}
  const std::error_code& code() const noexcept { return code_; }

 private:
  std::error_code code_;
};

}  // namespace baton::error
