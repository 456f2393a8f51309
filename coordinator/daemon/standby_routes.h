// How a standby coordinator answers its API (docs/ha.md, "Agents and operators"): the
// reads the shared journal holds it answers itself; every other request (the writes, and
// the reads only the leader's memory holds: its agents, a plan's Gantt chart) gets a
// redirect to the leader's API, or 503 when no coordinator leads.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace baton::coordinator {

// Whether a standby answers `method` `path` itself: GET of /metrics, /, /jobs/ID,
// /v1/jobs, /v1/jobs/ID, /v1/calibrations, /v1/calibrations/ID.
bool standby_answers(std::string_view method, std::string_view path);

// Where a request for `target` (its path and query) goes on the leader, from the value of
// `<prefix>leader` (`{"id", "api", "agents"}`): "http://<api><target>". Throws
// error::InvalidInput naming what is wrong when the value names no API, one no client
// can reach (a wildcard host such as 0.0.0.0), or the standby itself (`self`, its id: the
// key of its own earlier run, whose lease has not lapsed yet).
std::string leader_location(std::string_view leader, std::string_view target, std::string_view self);

}  // namespace baton::coordinator
