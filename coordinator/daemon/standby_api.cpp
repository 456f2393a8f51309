#include "coordinator/daemon/standby_api.h"

#include "coordinator/daemon/http_auth.h"
#include "coordinator/daemon/record_id.h"
#include "coordinator/daemon/request_error.h"
#include "coordinator/daemon/standby_routes.h"
#include "error/error.h"
#include "http/server.h"
#include "metrics/registry.h"

#include <httplib.h>

namespace baton::coordinator {
namespace {

using Json = StandbyView::Json;

void reply_error(httplib::Response& response, int status, const std::string& what) {
  response.status = status;
  response.set_content(Json{{"error", what}}.dump() + "\n", "application/json");
}

// Answers with what `work` returns, as `type`, or with the error it threw as the leader
// does: a RequestError's status, 503 for etcd out of reach (or any other failure to read).
void answer(httplib::Response& response, const char* type, const std::function<std::string()>& work) {
  try {
    response.set_content(work(), type);
  } catch (const RequestError& e) {
    reply_error(response, http_status(e.failure()), e.what());
  } catch (const std::exception& e) {
    reply_error(response, 503, std::string("this standby cannot read the journal: ") + e.what());
  }
}

std::uint64_t id_in(const httplib::Request& request, const char* what) {
  const std::string text = request.matches[1];
  const std::optional<std::uint64_t> id = parse_record_id(text);
  if (!id) throw RequestError(RequestFailure::not_found, std::string("no ") + what + " " + text);
  return *id;
}

}  // namespace

StandbyApi::StandbyApi(StandbyView& view, std::function<std::optional<std::string>()> leader,
                       std::function<std::string()> metrics, Options options)
    : view_(view), leader_(std::move(leader)), metrics_(std::move(metrics)), options_(std::move(options)),
      server_(std::make_unique<http::Server>()), serving_(*server_) {}

StandbyApi::~StandbyApi() { stop(); }

void StandbyApi::send_on(const httplib::Request& request, httplib::Response& response) const {
  std::optional<std::string> leader;
  try {
    leader = leader_();
  } catch (const std::exception& e) {
    reply_error(response, 503,
                "coordinator " + options_.id + " stands by and cannot learn which coordinator leads: " + e.what());
    return;
  }
  if (!leader) {
    response.set_header("Retry-After", "1");
    reply_error(response, 503,
                "coordinator " + options_.id + " stands by and no coordinator leads now (" + options_.leader_key +
                    " is not set in etcd): a standby takes over within the lease's TTL; send it again then");
    return;
  }
  try {
    response.set_redirect(leader_location(*leader, request.target, options_.id), 307);
    response.set_content(Json{{"location", response.get_header_value("Location")},
                              {"why", "coordinator " + options_.id + " stands by; the leader answers this request"}}
                                 .dump() +
                             "\n",
                         "application/json");
  } catch (const error::InvalidInput& e) {
    reply_error(response, 503, "coordinator " + options_.id + " stands by and cannot send this on: " + e.what());
  }
}

void StandbyApi::start(const std::string& address) {
  server_->set_pre_routing_handler([this](const httplib::Request& request, httplib::Response& response) {
    std::string token;
    {
      const std::lock_guard lock(token_mutex_);
      token = options_.token;
    }
    if (const std::optional<error::Refusal> refused = check_token(request, token)) {
      answer_unauthorized(response, *refused);
      return httplib::Server::HandlerResponse::Handled;
    }
    if (standby_answers(request.method, request.path)) return httplib::Server::HandlerResponse::Unhandled;
    // A request with a body is answered once it has been read: answered before, the
    // client could meet a closed connection while it still writes, and never read the
    // redirect.
    if (request.method == "POST" || request.method == "PUT" || request.method == "PATCH" || request.method == "DELETE")
      return httplib::Server::HandlerResponse::Unhandled;
    send_on(request, response);
    return httplib::Server::HandlerResponse::Handled;
  });
  server_->set_payload_max_length(64u << 20);  // the leader's: a job that fits it is sent on
  server_->Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
    answer(response, metrics::content_type, metrics_);
  });
  const auto json = [](httplib::Response& response, const std::function<Json()>& work) {
    answer(response, "application/json", [&] { return work().dump() + "\n"; });
  };
  server_->Get("/v1/jobs", [this, json](const httplib::Request&, httplib::Response& response) {
    json(response, [this] { return view_.jobs(); });
  });
  server_->Get(R"(/v1/jobs/([^/]+))", [this, json](const httplib::Request& request, httplib::Response& response) {
    json(response, [&] { return view_.job(id_in(request, "job")); });
  });
  server_->Get("/v1/calibrations", [this, json](const httplib::Request&, httplib::Response& response) {
    json(response, [this] { return view_.calibrations(); });
  });
  server_->Get(R"(/v1/calibrations/([^/]+))",
               [this, json](const httplib::Request& request, httplib::Response& response) {
                 json(response, [&] { return view_.calibration(id_in(request, "calibration")); });
               });
  const auto status_page = [this](httplib::Response& response, const std::string* id) {
    answer(response, "text/html; charset=utf-8", [&] {
      int status = 200;
      std::string page = view_.status_page(id, "standby: " + options_.leader_key + " names the leader", status);
      response.status = status;
      return page;
    });
  };
  server_->Get("/",
               [status_page](const httplib::Request&, httplib::Response& response) { status_page(response, nullptr); });
  server_->Get(R"(/jobs/([^/]+))", [status_page](const httplib::Request& request, httplib::Response& response) {
    const std::string id = request.matches[1];
    status_page(response, &id);
  });
  const auto on = [this](const httplib::Request& request, httplib::Response& response) { send_on(request, response); };
  server_->Post(".*", on);
  server_->Put(".*", on);
  server_->Patch(".*", on);
  server_->Delete(".*", on);
  serving_.start(address, "API (standby)");
}

void StandbyApi::set_token(std::string token) {
  const std::lock_guard lock(token_mutex_);
  options_.token = std::move(token);
}

void StandbyApi::stop() { serving_.stop(); }

}  // namespace baton::coordinator
