// How the reduction validators (reduction_validator.cpp, allreduce_validator.cpp) word what
// they find.
#pragma once

#include "coordinator/schedule/reduction/validator.h"

#include <cstddef>
#include <string>
#include <utility>

namespace baton::schedule::reduction {

// The verdict on a schedule that breaks the rule `why` describes.
inline Verdict broken(std::string why) { return {.broken = std::move(why), .makespan = 0}; }

// A transfer as the verdicts name it: by its index in the schedule.
inline std::string transfer_name(std::size_t index) { return "transfer #" + std::to_string(index); }

}  // namespace baton::schedule::reduction
