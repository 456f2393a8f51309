// What can go wrong in a coupling, as one kind and one line (docs/design.md, "One
// vocabulary"): the C ABI turns the kind into its status (include/baton/baton.h), Python
// into an exception of the matching class.
#pragma once

#include "error/error.h"

#include <string>

namespace baton::coupling {

enum class Errc {
  invalid_argument = 1,  // a wrong value, named in the message
  unknown_name,          // no array of that name was shared on this node
  region_too_small,      // the memory given is smaller than this node's part of the layout
  unreachable,           // the coordinator does not answer (or did not register this node)
  job_failed,            // the coordinator failed or cancelled the job; the message is its error
  timeout,               // the job did not end in time
};

class Error : public error::Error {
 public:
  Error(Errc code, const std::string& message) : error::Error(message), code_(code) {}
  Errc code() const { return code_; }

 private:
  Errc code_;
};

}  // namespace baton::coupling
