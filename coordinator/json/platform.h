// The KPBS platform as JSON (docs/formats.md): "sender_rate", "receiver_rate",
// "backbone_rate" (bytes/s) and "step_startup" (s, β). A job's and `batonctl plan`'s
// "platform", the journal's re-plans and the report's platform line all hold these four
// fields; this is their one writer and their one reader. A job's may add each node's own
// rate: "sender_rates" and "receiver_rates", one per sender (receiver), in its order.
#pragma once

#include "coordinator/json/input.h"
#include "coordinator/schedule/kpbs/platform.h"

#include <string_view>

namespace baton::json {

// The four fields, in that order, and the nodes' own rates where the platform has them,
// added to the object `out` (its other members kept).
void add_platform_fields(const schedule::kpbs::Platform& platform, Json& out);
// An object of the four alone.
Json platform_json(const schedule::kpbs::Platform& platform);

// What a reader accepts besides the four fields, each a number, the rates > 0.
struct PlatformRules {
  // β > 0, as the planners take it (`batonctl plan`); otherwise 0 <= β <= 3600 s (a job).
  bool positive_step_startup = false;
  // Other members are kept by the caller (the report's line holds more); otherwise each is
  // refused by name, since a typo in a platform would silently change the plan.
  bool other_members = false;
  // "sender_rates" and "receiver_rates" (a job's; read also where other members are kept).
  bool node_rates = false;
};

// Reads the platform object `value` at `path` ("platform"); throws InputError naming the
// field that is missing, mistyped or out of range ("platform.step_startup: must be > 0").
schedule::kpbs::Platform parse_platform(const Json& value, std::string_view path, PlatformRules rules = {});

}  // namespace baton::json
