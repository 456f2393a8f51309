#include "coordinator/calibration/calibration.h"

#include "coordinator/schedule/kpbs/lower_bound.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace baton::calibration {
namespace {

using Json = nlohmann::ordered_json;

const Json& member(const Json& json, const char* name) {
  if (!json.is_object() || !json.contains(name)) throw std::invalid_argument(std::string("no \"") + name + "\"");
  return json.at(name);
}

double number(const Json& json, const char* name) {
  const Json& v = member(json, name);
  if (!v.is_number()) throw std::invalid_argument(std::string("\"") + name + "\" is not a number");
  return v.get<double>();
}

std::uint64_t whole(const Json& json, const char* name) {
  const Json& v = member(json, name);
  if (!v.is_number_unsigned()) throw std::invalid_argument(std::string("\"") + name + "\" is not a whole number");
  return v.get<std::uint64_t>();
}

std::string text(const Json& json, const char* name) {
  const Json& v = member(json, name);
  if (!v.is_string()) throw std::invalid_argument(std::string("\"") + name + "\" is not a string");
  return v.get<std::string>();
}

std::vector<std::string> names(const Json& json, const char* name) {
  const Json& v = member(json, name);
  if (!v.is_array()) throw std::invalid_argument(std::string("\"") + name + "\" is not a list");
  std::vector<std::string> out;
  for (const Json& n : v) {
    if (!n.is_string()) throw std::invalid_argument(std::string("\"") + name + "\" holds a non-string");
    out.push_back(n.get<std::string>());
  }
  return out;
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
    if (!n) throw std::invalid_argument("node " + node + " was not calibrated as a " + role);
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
          .step_startup = std::max(step_startup, kMinStepStartup)};
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

Calibration from_json(const Json& json) {
  Calibration c;
  c.d = number(json, "d");
  c.D = number(json, "D");
  c.beta = number(json, "beta");
  c.beta_one_flow = number(json, "beta_one_flow");
  c.k = static_cast<int>(whole(json, "k"));
  if (!member(json, "saturated").is_boolean()) throw std::invalid_argument("\"saturated\" is not true or false");
  c.saturated = member(json, "saturated").get<bool>();
  c.senders = names(json, "senders");
  c.receivers = names(json, "receivers");
  for (const Json& n : member(json, "nodes")) {
    c.nodes.push_back(NodeRate{text(n, "node"), text(n, "role"), number(n, "rate")});
  }
  for (const Json& p : member(json, "curve")) {
    c.curve.push_back(
        CurvePoint{static_cast<int>(whole(p, "flows")), whole(p, "bytes"), number(p, "seconds"), number(p, "rate")});
  }
  for (const Json& p : member(json, "sizes")) {
    c.sizes.push_back(SizePoint{static_cast<int>(whole(p, "flows")), whole(p, "bytes"), number(p, "seconds")});
  }
  c.flow_seconds = number(json, "flow_seconds");
  c.probe_steps = static_cast<int>(whole(json, "probe_steps"));
  c.probe_bytes = whole(json, "probe_bytes");
  return c;
}

Json platform_json(const schedule::kpbs::Platform& p) {
  return Json{{"sender_rate", p.sender_rate},
              {"receiver_rate", p.receiver_rate},
              {"backbone_rate", p.backbone_rate},
              {"step_startup", p.step_startup}};
}

schedule::kpbs::Platform platform_from_json(const Json& j) {
  return schedule::kpbs::Platform{.sender_rate = j.at("sender_rate").get<double>(),
                                  .receiver_rate = j.at("receiver_rate").get<double>(),
                                  .backbone_rate = j.at("backbone_rate").get<double>(),
                                  .step_startup = j.at("step_startup").get<double>()};
}

}  // namespace baton::calibration
