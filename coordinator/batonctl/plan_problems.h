// The problems of `batonctl plan`, one factory per problem (one file each).
#pragma once

#include "coordinator/batonctl/plan_command.h"

namespace baton::batonctl {

// The checks of coordinator/json/input.h that every problem's reader is written in.
using json::element_path;
using json::InputError;
using json::Json;
using json::member_path;
using json::require_array;
using json::require_integer;
using json::require_member;
using json::require_number;
using json::require_object;
using json::require_positive;

PlanProblem redistribution_plan_problem();      // plan_redistribution.cpp
PlanProblem reduction_plan_problem();           // plan_reduction.cpp
PlanProblem allreduce_plan_problem();           // plan_reduction.cpp
PlanProblem multicast_plan_problem();           // plan_multicast.cpp
PlanProblem buffered_multicast_plan_problem();  // plan_buffered_multicast.cpp

}  // namespace baton::batonctl
