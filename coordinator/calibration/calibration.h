// What a calibration measured (docs/calibration.md): the KPBS paper's platform figures
// taken from the network instead of declared — d (one flow's rate), D (the backbone: the
// aggregate rate where adding a flow stops adding throughput), β (a step's fixed cost) and
// k = ⌊D/d⌋ — with the points they came from, and the platform a job over some of the
// calibrated nodes is planned with.
#pragma once

#include "coordinator/jobs/job.h"
#include "coordinator/schedule/kpbs/platform.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace baton::calibration {

// A ratio D/d this close below an integer counts as that integer: the measurement cannot
// tell 2.98 from 3, and k flows over a backbone 3 % short of them run 3 % slow, while
// k − 1 flows leave a whole flow's share idle (docs/calibration.md, "k").
inline constexpr double kRatioTolerance = 0.03;
// The smallest β a platform gets: the planners need β > 0 (GGP counts weights in start-ups).
inline constexpr double kMinStepStartup = 1e-4;

// k = ⌊D/d⌋, with kRatioTolerance; at least 1.
int k_of(double backbone_rate, double flow_rate);

// A platform from measured rates: D is raised to k·d when the ratio is within
// kRatioTolerance below k, so that the planners' ⌊D/d⌋ finds the same k as k_of; β is at
// least kMinStepStartup.
schedule::kpbs::Platform measured_platform(double sender_rate, double receiver_rate, double backbone_rate,
                                           double step_startup);

struct NodeRate {
  std::string node;
  std::string role;  // "sender" or "receiver"
  double rate = 0;   // bytes/s of its fastest probe flow, alone on the backbone
};

// One step of the curve: `flows` concurrent flows between the groups.
struct CurvePoint {
  int flows = 0;
  std::uint64_t bytes = 0;  // all of them
  double seconds = 0;       // the step, measured
  double rate = 0;          // bytes / (seconds − β): their aggregate rate
};

// One step of a series of growing size: `flows` concurrent flows, the first of them (s1 →
// r1) of `bytes`, the others as long at their own pair's rate.
struct SizePoint {
  int flows = 1;
  std::uint64_t bytes = 0;
  double seconds = 0;
};

struct Calibration {
  std::vector<std::string> senders, receivers;
  double d = 0;              // bytes/s: the slowest node's flow, min over every node
  double D = 0;              // bytes/s: the most the curve reached
  double beta = 0;           // s: a step's start-up, the intercept of the k-flow size series' fit
  double beta_one_flow = 0;  // s: the same of the one-flow series (what the rates are net of)
  int k = 0;                 // k_of(D, d)
  // The curve bent (a flow added less than half its own rate): D is the backbone's. When
  // false every flow the groups allow ran at full rate, and D is only a lower bound.
  bool saturated = false;
  std::vector<NodeRate> nodes;
  std::vector<CurvePoint> curve;
  std::vector<SizePoint> sizes;
  double flow_seconds = 0;  // how long one probe flow was meant to last
  int probe_steps = 0;
  std::uint64_t probe_bytes = 0;
};

// Of two ways to use a measured backbone, the one whose lower bound η (Proposition 1 of
// the KPBS paper) is lower for this traffic: k = ⌊D/d⌋ flows at d, which leaves D − k·d
// of the backbone idle, or k + 1 flows paced at D/(k + 1), which fills it but slows each
// flow (a loss when one node's own bytes bound the job, W/d in η). With D = 2.5 d and
// even traffic, three flows at D/3 move 25 % more per second than two at d. The wider
// platform must lower η by more than kFillGain: measured D and d carry a few per cent of
// noise, and Fig. 16's D = k·d must keep its k.
inline constexpr double kFillGain = 0.05;
schedule::kpbs::Platform fullest_platform(const schedule::kpbs::Platform& measured, const jobs::Clusters& clusters,
                                          const std::vector<jobs::TransferSpec>& transfers);

// The platform of a job whose senders and receivers are among the calibration's (the
// caller checks): the slowest of its own nodes' rates, the calibration's D and β.
schedule::kpbs::Platform platform_for(const Calibration& calibration, const jobs::Clusters& clusters);
// Whether every sender and receiver of `clusters` was calibrated in that role.
bool covers(const Calibration& calibration, const jobs::Clusters& clusters);

// The calibration's JSON (docs/calibration.md; a contract: "d", "D", "beta", "k" at least)
// and back. from_json throws json::InputError naming a missing or mistyped field by its
// path below `path`; members it does not know are ignored.
nlohmann::ordered_json to_json(const Calibration& calibration);
Calibration from_json(const nlohmann::ordered_json& json, const std::string& path = "");

}  // namespace baton::calibration
