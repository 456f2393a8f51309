// A small client for the coordinator's HTTP/JSON API (docs/runtime.md, "The coordinator's
// API"). Every call returns the parsed answer or throws one of the typed errors below.
#pragma once

#include "coordinator/batonctl/coordinator_url.h"
#include "coordinator/json/input.h"

#include <stdexcept>
#include <string>

namespace baton::batonctl {

// The coordinator answered with an error status; what() is its "error" text.
class ApiError : public std::runtime_error {
 public:
  ApiError(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// The coordinator could not be reached; what() names the URL and the cause (refused, timed
// out, a name that does not resolve).
class ConnectionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ApiClient {
 public:
  // url: "http://host:port", checked here (json::InputError naming what is wrong);
  // token: sent as "Authorization: Bearer <token>" unless empty.
  ApiClient(const std::string& url, std::string token);

  json::Json get(const std::string& path) const;
  json::Json post(const std::string& path, const json::Json& body) const;
  json::Json remove(const std::string& path) const;  // DELETE

  const std::string& url() const { return url_.text; }

 private:
  CoordinatorUrl url_;
  std::string token_;
};

}  // namespace baton::batonctl
