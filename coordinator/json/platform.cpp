#include "coordinator/json/platform.h"

#include "coordinator/json/fields.h"

namespace baton::json {
namespace {

// The longest step start-up a job may declare.
constexpr double kMaxStepStartup = 3600;

double rate(const Json& value, std::string_view path, std::string_view name) {
  return require_positive(require_member(value, path, name), member_path(path, name));
}

}  // namespace

void add_platform_fields(const schedule::kpbs::Platform& p, Json& out) {
  out["sender_rate"] = p.sender_rate;
  out["receiver_rate"] = p.receiver_rate;
  out["backbone_rate"] = p.backbone_rate;
  out["step_startup"] = p.step_startup;
}

Json platform_json(const schedule::kpbs::Platform& platform) {
  Json out = Json::object();
  add_platform_fields(platform, out);
  return out;
}

schedule::kpbs::Platform parse_platform(const Json& value, std::string_view path, PlatformRules rules) {
  if (rules.other_members) object_at(value, path);
  else require_object(value, path, {"sender_rate", "receiver_rate", "backbone_rate", "step_startup"});
  schedule::kpbs::Platform out;
  out.sender_rate = rate(value, path, "sender_rate");
  out.receiver_rate = rate(value, path, "receiver_rate");
  out.backbone_rate = rate(value, path, "backbone_rate");
  const Json& startup = require_member(value, path, "step_startup");
  const std::string startup_path = member_path(path, "step_startup");
  out.step_startup = rules.positive_step_startup ? require_positive(startup, startup_path)
                                                 : require_number(startup, startup_path, 0, kMaxStepStartup);
  return out;
}

}  // namespace baton::json
