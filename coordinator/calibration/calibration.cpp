#include "coordinator/calibration/calibration.h"

#include "coordinator/json/fields.h"
#include "coordinator/schedule/kpbs/lower_bound.h"
#include "error/error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace baton::calibration {
namespace {

using Json = nlohmann::ordered_json;

int small_count(const Json& object, const std::string& parent, const char* name) {
  return static_cast<int>(json::require_integer(json::require_member(object, parent, name),
                                                json::member_path(parent, name), 0, std::numeric_limits<int>::max()));
}

// A list member's elements, each an object named by its path.
template <typename Read>
void each(const Json& object, const std::string& parent, const char* name, Read read) {
  const std::string path = json::member_path(parent, name);
  const Json& list =
      json::require_array(json::require_member(object, parent, name), path, 0, std::numeric_limits<std::size_t>::max());
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = json::element_path(path, i);
    read(json::object_at(list[i], at), at);
  }
}

const NodeRate* find_node(const Calibration& c, const std::string& node, const char* role) {
  const auto it = std::ranges::find_if(c.nodes, [&](const NodeRate& n) { return n.node == node && n.role == role; });
  return it == c.nodes.end() ? nullptr : &*it;
}

// The slowest rate among `nodes` in `role`.
double slowest(const Calibration& c, const std::vector<std::string>& nodes, const char* role) {
  double out = INFINITY;
  for (const std::string& node : nodes) {
    const NodeRate* n = find_node(c, node, role);
    if (!n) throw error::InvalidInput("node " + node + " was not calibrated as a " + role);
    out = std::min(out, n->rate);
  }
  return out;
}

}  // namespace

int k_of(double backbone_rate, double flow_rate) {
  if (!(backbone_rate > 0) || !(flow_rate > 0)) return 1;
  return std::max(1, static_cast<int>(std::floor(backbone_rate / flow_rate / (1 - kRatioTolerance))));
}

schedule::kpbs::Platform measured_platform(double sender_rate, double receiver_rate, double backbone_rate,
                                           double step_startup) {
  const double d = std::min({sender_rate, receiver_rate, backbone_rate});
  const int k = k_of(backbone_rate, d);
  // A hair above k·d, so that ⌊D/d⌋ is k however the division rounds.
  const double backbone = std::max(backbone_rate, k * d * (1 + 1e-9));
  return {.sender_rate = sender_rate,
          .receiver_rate = receiver_rate,
          .backbone_rate = backbone,
          .step_startup = std::max(step_startup, kMinStepStartup),
          .sender_rates = {},
          .receiver_rates = {}};
}

schedule::kpbs::Platform fullest_platform(const schedule::kpbs::Platform& measured, const jobs::Clusters& clusters,
                                          const std::vector<jobs::TransferSpec>& transfers) {
  namespace kpbs = schedule::kpbs;
  const std::size_t senders = clusters.senders.size();
  const std::size_t receivers = clusters.receivers.size();
  const int k = kpbs::derive_k(measured, senders, receivers);
  if (k >= static_cast<int>(std::min(senders, receivers))) return measured;  // no wider step exists
  // k + 1 flows at a hair under D/(k + 1), so that ⌊D/d⌋ is k + 1 however the division rounds.
  const double paced = measured.backbone_rate / (k + 1) * (1 - 1e-9);
  if (!(paced < kpbs::flow_rate(measured))) return measured;

  kpbs::PlatformProblem problem{.platform = measured, .bytes = kpbs::Matrix(senders, receivers)};
  for (const jobs::TransferSpec& t : transfers) {
    const auto s = std::ranges::find(clusters.senders, t.src_node);
    const auto r = std::ranges::find(clusters.receivers, t.dst_node);
    if (s == clusters.senders.end() || r == clusters.receivers.end()) return measured;  // the planner says why
    problem.bytes.at(static_cast<std::size_t>(s - clusters.senders.begin()),
                     static_cast<std::size_t>(r - clusters.receivers.begin())) += static_cast<double>(t.length);
  }
  kpbs::PlatformProblem wider = problem;
  wider.platform.sender_rate = std::min(measured.sender_rate, paced);
  wider.platform.receiver_rate = std::min(measured.receiver_rate, paced);
  const double as_measured = kpbs::lower_bound(kpbs::normalize(problem)).eta;
  const double filled = kpbs::lower_bound(kpbs::normalize(wider)).eta;
  return filled < as_measured * (1 - kFillGain) ? wider.platform : measured;
}

bool covers(const Calibration& calibration, const jobs::Clusters& clusters) {
  const auto all = [&](const std::vector<std::string>& nodes, const char* role) {
    return std::ranges::all_of(nodes, [&](const std::string& n) { return find_node(calibration, n, role) != nullptr; });
  };
  return all(clusters.senders, "sender") && all(clusters.receivers, "receiver");
}

schedule::kpbs::Platform platform_for(const Calibration& calibration, const jobs::Clusters& clusters) {
  return measured_platform(slowest(calibration, clusters.senders, "sender"),
                           slowest(calibration, clusters.receivers, "receiver"), calibration.D, calibration.beta);
}

Json to_json(const Calibration& c) {
  Json nodes = Json::array(), curve = Json::array(), sizes = Json::array();
  for (const NodeRate& n : c.nodes) nodes.push_back(Json{{"node", n.node}, {"role", n.role}, {"rate", n.rate}});
  for (const CurvePoint& p : c.curve) {
    curve.push_back(Json{{"flows", p.flows}, {"bytes", p.bytes}, {"seconds", p.seconds}, {"rate", p.rate}});
  }
  for (const SizePoint& p : c.sizes) {
    sizes.push_back(Json{{"flows", p.flows}, {"bytes", p.bytes}, {"seconds", p.seconds}});
  }
  return Json{{"d", c.d},
              {"D", c.D},
              {"beta", c.beta},
              {"k", c.k},
              {"beta_one_flow", c.beta_one_flow},
              {"saturated", c.saturated},
              {"senders", c.senders},
              {"receivers", c.receivers},
              {"nodes", std::move(nodes)},
              {"curve", std::move(curve)},
              {"sizes", std::move(sizes)},
              {"flow_seconds", c.flow_seconds},
              {"probe_steps", c.probe_steps},
              {"probe_bytes", c.probe_bytes}};
}

Calibration from_json(const Json& value, const std::string& path) {
  json::object_at(value, path);
  Calibration c;
  c.d = json::number(value, path, "d");
  c.D = json::number(value, path, "D");
  c.beta = json::number(value, path, "beta");
  c.beta_one_flow = json::number(value, path, "beta_one_flow");
  c.k = small_count(value, path, "k");
  c.saturated = json::flag(value, path, "saturated");
  c.senders = json::names(value, path, "senders");
  c.receivers = json::names(value, path, "receivers");
  each(value, path, "nodes", [&](const Json& n, const std::string& at) {
    c.nodes.push_back(NodeRate{json::text(n, at, "node"), json::text(n, at, "role"), json::number(n, at, "rate")});
  });
  each(value, path, "curve", [&](const Json& p, const std::string& at) {
    c.curve.push_back(CurvePoint{small_count(p, at, "flows"), json::count(p, at, "bytes"),
                                 json::number(p, at, "seconds"), json::number(p, at, "rate")});
  });
  each(value, path, "sizes", [&](const Json& p, const std::string& at) {
    c.sizes.push_back(
        SizePoint{small_count(p, at, "flows"), json::count(p, at, "bytes"), json::number(p, at, "seconds")});
  });
  c.flow_seconds = json::number(value, path, "flow_seconds");
  c.probe_steps = small_count(value, path, "probe_steps");
  c.probe_bytes = json::count(value, path, "probe_bytes");
  return c;
}

}  // namespace baton::calibration
