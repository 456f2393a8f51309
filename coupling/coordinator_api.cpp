#include "coupling/coordinator_api.h"

#include "coupling/error.h"

#include <httplib.h>

#include <charconv>
#include <cmath>

namespace baton::coupling {
namespace {

using Json = nlohmann::json;

// The coordinator is local or on the cluster's network: 5 s to connect is long already.
void configure(httplib::Client& client, const std::string& token) {
  client.set_connection_timeout(std::chrono::seconds(5));
  client.set_read_timeout(std::chrono::seconds(30));
  client.set_write_timeout(std::chrono::seconds(30));
  if (!token.empty()) client.set_bearer_token_auth(token);
}

Json body_of(const httplib::Result& result, const std::string& address, const std::string& what) {
  if (!result) {
    throw Error(Errc::unreachable, "cannot reach the coordinator's API at " + address + " (" + what +
                                       "): " + httplib::to_string(result.error()));
  }
  Json body = Json::parse(result->body, nullptr, /*allow_exceptions=*/false);
  if (result->status >= 400) {
    const std::string error = body.is_object() && body.contains("error") && body["error"].is_string()
                                  ? body["error"].get<std::string>()
                                  : "HTTP " + std::to_string(result->status);
    if (result->status == 404) throw Error(Errc::unknown_name, what + ": " + error);
    if (result->status == 401) throw Error(Errc::invalid_argument, what + ": the API token was refused: " + error);
    throw Error(Errc::job_failed, what + ": the coordinator refused it: " + error);
  }
  if (!body.is_object()) {
    throw Error(Errc::unreachable, what + ": the coordinator at " + address + " answered something that is not JSON");
  }
  return body;
}

}  // namespace

CoordinatorApi::CoordinatorApi(const std::string& address, std::string token) : token_(std::move(token)) {
  host_port_ = address.starts_with("http://") ? address.substr(7) : address;
  const auto colon = host_port_.rfind(':');
  const char* first = host_port_.data() + (colon == std::string::npos ? 0 : colon + 1);
  const char* last = host_port_.data() + host_port_.size();
  const auto [end, ec] = std::from_chars(first, last, port_);
  if (colon == std::string::npos || colon == 0 || ec != std::errc() || end != last || port_ <= 0 || port_ > 65535) {
    throw Error(Errc::invalid_argument, "api: \"" + address + "\" is not host:port");
  }
  host_ = host_port_.substr(0, colon);
}

CoordinatorApi::~CoordinatorApi() = default;

std::string CoordinatorApi::submit(const std::string& job_json) const {
  httplib::Client client(host_, port_);
  configure(client, token_);
  const Json body = body_of(client.Post("/v1/jobs", job_json, "application/json"), host_port_, "submitting a job");
  if (!body.contains("id") || !body["id"].is_string()) {
    throw Error(Errc::unreachable, "submitting a job: the coordinator's answer has no \"id\"");
  }
  return body["id"].get<std::string>();
}

Json CoordinatorApi::job(const std::string& id) const {
  httplib::Client client(host_, port_);
  configure(client, token_);
  return body_of(client.Get("/v1/jobs/" + id), host_port_, "job " + id);
}

Json CoordinatorApi::wait_job(const std::string& id, std::chrono::milliseconds wait) const {
  const std::lock_guard lock(waiting_mutex_);
  if (!waiting_) {
    waiting_ = std::make_unique<httplib::Client>(host_, port_);
    configure(*waiting_, token_);
    waiting_->set_keep_alive(true);
  }
  const std::string path = "/v1/jobs/" + id + "?wait=" + std::to_string(std::chrono::duration<double>(wait).count());
  httplib::Result result = waiting_->Get(path);
  // The coordinator may have closed the idle connection as this request left: once more on
  // a new one (a GET changes nothing).
  if (!result) result = waiting_->Get(path);
  return body_of(result, host_port_, "job " + id);
}

std::map<std::string, double> CoordinatorApi::agent_rates() const {
  httplib::Client client(host_, port_);
  configure(client, token_);
  std::map<std::string, double> out;
  Json body;
  try {
    body = body_of(client.Get("/v1/agents"), host_port_, "the agents");
  } catch (const Error& e) {
    if (e.code() != Errc::unknown_name) throw;
    return out;  // a coordinator without the list: every node at the session's rate
  }
  if (!body.contains("agents") || !body["agents"].is_array()) return out;
  for (const Json& agent : body["agents"]) {
    if (!agent.is_object() || !agent.contains("node") || !agent["node"].is_string()) continue;
    if (!agent.contains("rate") || !agent["rate"].is_number()) continue;
    const double rate = agent["rate"].get<double>();
    if (rate > 0 && std::isfinite(rate)) out[agent["node"].get<std::string>()] = rate;
  }
  return out;
}

void CoordinatorApi::cancel(const std::string& id) const {
  httplib::Client client(host_, port_);
  configure(client, token_);
  client.Post("/v1/jobs/" + id + "/cancel", "", "application/json");
}

}  // namespace baton::coupling
