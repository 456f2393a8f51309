#include "coordinator/json/platform.h"

#include "coordinator/json/fields.h"

#include <string>
#include <vector>

namespace baton::json {
namespace {

// The longest step start-up a job may declare.
constexpr double kMaxStepStartup = 3600;

double rate(const Json& value, std::string_view path, std::string_view name) {
  return require_positive(require_member(value, path, name), member_path(path, name));
}

// "sender_rates" or "receiver_rates": one rate per node, each > 0.
std::vector<double> rates(const Json& value, std::string_view path, std::string_view name) {
  if (!value.contains(name)) return {};
  const std::string at = member_path(path, name);
  const Json& list = require_array(value[name], at, 1, std::size_t{1} << 20);
  std::vector<double> out;
  for (std::size_t i = 0; i < list.size(); ++i)
    out.push_back(require_positive(list[i], at + "[" + std::to_string(i) + "]"));
  return out;
}

}  // namespace

void add_platform_fields(const schedule::kpbs::Platform& p, Json& out) {
  out["sender_rate"] = p.sender_rate;
  out["receiver_rate"] = p.receiver_rate;
  out["backbone_rate"] = p.backbone_rate;
  out["step_startup"] = p.step_startup;
  if (!p.sender_rates.empty()) out["sender_rates"] = p.sender_rates;
  if (!p.receiver_rates.empty()) out["receiver_rates"] = p.receiver_rates;
}

Json platform_json(const schedule::kpbs::Platform& platform) {
  Json out = Json::object();
  add_platform_fields(platform, out);
  return out;
}

schedule::kpbs::Platform parse_platform(const Json& value, std::string_view path, PlatformRules rules) {
  if (rules.other_members) object_at(value, path);
  else if (rules.node_rates)
    require_object(value, path,
                   {"sender_rate", "receiver_rate", "backbone_rate", "step_startup", "sender_rates", "receiver_rates"});
  else require_object(value, path, {"sender_rate", "receiver_rate", "backbone_rate", "step_startup"});
  schedule::kpbs::Platform out;
  out.sender_rate = rate(value, path, "sender_rate");
  out.receiver_rate = rate(value, path, "receiver_rate");
  out.backbone_rate = rate(value, path, "backbone_rate");
  const Json& startup = require_member(value, path, "step_startup");
  const std::string startup_path = member_path(path, "step_startup");
  out.step_startup = rules.positive_step_startup ? require_positive(startup, startup_path)
                                                 : require_number(startup, startup_path, 0, kMaxStepStartup);
  if (rules.node_rates || rules.other_members) {
    out.sender_rates = rates(value, path, "sender_rates");
    out.receiver_rates = rates(value, path, "receiver_rates");
  }
  return out;
}

}  // namespace baton::json
