// The one result vocabulary of requests to the coordinator: a RequestError says what kind
// of failure it is and, in one line, what is wrong. The HTTP API maps each kind to its
// status in one place (http_status below); nothing else decides an error's status.
#pragma once

#include "error/error.h"

#include <string>

namespace baton::coordinator {

enum class RequestFailure {
  bad_request,   // the request names something wrong: a field, a node, a range (400)
  unauthorized,  // no API token, or the wrong one (401)
  not_found,     // no such job (404)
  conflict,      // the job's state does not allow it: already ended, not planned yet (409)
  too_many,      // a queue is at its cap, named in the message (429)
  too_large,     // the request's body is larger than its route takes, both sizes named (413)
  internal,      // anything else: a bug, said as one (500)
};

class RequestError : public error::Error {
 public:
  RequestError(RequestFailure failure, const std::string& what) : error::Error(what), failure_(failure) {}
  RequestFailure failure() const noexcept { return failure_; }

 private:
  RequestFailure failure_;
};

constexpr int http_status(RequestFailure failure) noexcept {
  switch (failure) {
    case RequestFailure::bad_request: return 400;
    case RequestFailure::unauthorized: return 401;
    case RequestFailure::not_found: return 404;
    case RequestFailure::conflict: return 409;
    case RequestFailure::too_many: return 429;
    case RequestFailure::too_large: return 413;
    case RequestFailure::internal: return 500;
  }
  return 500;
}

}  // namespace baton::coordinator
