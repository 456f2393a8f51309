// The problems of `batonctl plan`, one factory per problem (one file each).
#pragma once

#include "coordinator/batonctl/plan_command.h"

namespace baton::batonctl {

PlanProblem redistribution_plan_problem();      // plan_redistribution.cpp
PlanProblem reduction_plan_problem();           // plan_reduction.cpp
PlanProblem allreduce_plan_problem();           // plan_reduction.cpp
PlanProblem multicast_plan_problem();           // plan_multicast.cpp
PlanProblem buffered_multicast_plan_problem();  // plan_buffered_multicast.cpp

}  // namespace baton::batonctl
