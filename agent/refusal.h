// What every check of the agent answers (plan_check.h, dataflow_step_check.h, data_root.h,
// scratch.h): nothing when what it checked may be used, else one line saying why not.
#pragma once

#include <optional>
#include <string>

namespace baton::agent {

using Refusal = std::optional<std::string>;

}  // namespace baton::agent
