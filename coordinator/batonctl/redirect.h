// Where a coordinator's redirect sends a request (docs/ha.md, "Agents and operators"): a
// standby answers a write with 307 and the leader's URL, which it read from etcd's
// `<prefix>leader`. batonctl sends the same request there, with its token (docs/ha.md says
// why that gives the token to no one the cluster does not already trust).
#pragma once

#include "coordinator/batonctl/coordinator_url.h"

#include <string>

namespace baton::batonctl {

struct Redirect {
  CoordinatorUrl coordinator;  // the coordinator it names
  std::string target;          // the path and query to ask there
};

// The redirect `location`: an absolute http URL with a path. error::InvalidInput naming
// `location` and what is wrong with it.
Redirect parse_redirect(const std::string& location);

}  // namespace baton::batonctl
