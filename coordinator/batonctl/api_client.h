// A small client for the coordinator's HTTP/JSON API (docs/runtime.md, "The coordinator's
// API"). Every call returns the parsed answer or throws one of the typed errors below.
#pragma once

#include "coordinator/batonctl/coordinator_url.h"
#include "coordinator/json/input.h"
#include "error/error.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace httplib {
class Client;
class Result;
}  // namespace httplib

namespace baton::batonctl {

// The coordinator answered with an error status; what() is its "error" text.
class ApiError : public error::Error {
 public:
  ApiError(int status, const std::string& message) : error::Error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// The coordinator could not be reached; what() names the URL and the cause (refused, timed
// out, a name that does not resolve).
class ConnectionError : public error::SystemError {
 public:
  using error::SystemError::SystemError;
};

class ApiClient {
 public:
  // url: "http://host:port", checked here (json::InputError naming what is wrong), or
  // several separated by commas (standby coordinators, docs/ha.md): a request whose
  // connection cannot be made goes to the next; a standby's redirect to the leader is
  // followed; token: sent as "Authorization: Bearer <token>" unless empty.
  ApiClient(const std::string& url, std::string token);

  json::Json get(const std::string& path) const;
  json::Json post(const std::string& path, const json::Json& body) const;
  json::Json remove(const std::string& path) const;  // DELETE

  // The coordinator that answered last (the first before any answer).
  const std::string& url() const { return urls_[current_].text; }

 private:
  // Redirects followed for one request, at most (a standby to the leader takes one).
  static constexpr int kMaxRedirects = 3;
  // Sends `path` with `request`: the same method and body wherever it goes.
  using Request = std::function<httplib::Result(httplib::Client&, const std::string& path)>;

  // Sends to the coordinator that answered last, then the others while a connection
  // cannot be made (nothing was sent: safe to send elsewhere).
  json::Json send(const std::string& path, const Request& request) const;
  // A standby's 307 (or 308) followed to the leader it names (redirect.h), the same
  // request sent there: at most kMaxRedirects times. A write is never sent twice to a
  // coordinator that acts on it: a standby acts on none.
  json::Json follow(httplib::Result result, const Request& request) const;

  std::vector<CoordinatorUrl> urls_;
  mutable std::size_t current_ = 0;
  std::string token_;
};

}  // namespace baton::batonctl
