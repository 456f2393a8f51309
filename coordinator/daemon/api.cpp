#include "coordinator/daemon/api.h"

#include "coordinator/daemon/http_auth.h"
#include "coordinator/daemon/record_id.h"
#include "coordinator/daemon/shown_job.h"
#include "coordinator/json/input.h"
#include "coordinator/report/calibration_svg.h"
#include "coordinator/report/gantt_svg.h"
#include "coordinator/report/status_page.h"
#include "error/error.h"
#include "http/server.h"
#include "metrics/registry.h"

#include <httplib.h>
#include <asio/post.hpp>

#include <future>

namespace baton::coordinator {
namespace {

using Json = Driver::Json;

void reply(httplib::Response& response, int status, const Json& body) {
  response.status = status;
  response.set_content(body.dump() + "\n", "application/json");
}

// An error's answer: its status from the one switch (http_status), its line as "error".
void reply_error(httplib::Response& response, RequestFailure failure, const std::string& what) {
  reply(response, http_status(failure), Json{{"error", what}});
}

// The id in a path's first group: a job's or a calibration's (`what`); 404 naming it if
// the path spells none.
std::uint64_t path_id(const httplib::Request& request, const char* what) {
  const std::string text = request.matches[1];
  const std::optional<std::uint64_t> id = parse_record_id(text);
  if (!id) throw RequestError(RequestFailure::not_found, std::string("no ") + what + " " + text);
  return *id;
}

// The peers refused at the handshake, for `GET /v1/agents`'s "refused" (docs/runtime.md).
Json refused_json(const std::vector<RefusedPeer>& peers, std::chrono::steady_clock::time_point now) {
  Json list = Json::array();
  for (const RefusedPeer& p : peers) {
    list.push_back(Json{{"address", p.address},
                        {"node", p.node},
                        {"reason", p.reason},
                        {"attempts", p.attempts},
                        {"last_attempt_age", std::chrono::duration<double>(now - p.last).count()}});
  }
  return list;
}

}  // namespace

Api::Api(asio::io_context& io, Driver& driver, const AgentRegistry& registry, std::string token)
    : io_(io), driver_(driver), registry_(registry), token_(std::move(token)),
      server_(std::make_unique<http::Server>()), serving_(*server_) {
  driver_.on_job_end([this] { job_ends_.ended(); });  // before the io_context runs
}

Api::~Api() {
  stop();
  driver_.on_job_end(nullptr);  // the io_context has stopped
}

void Api::start(const std::string& address) {
  // Runs `work` on the io thread, which owns the driver's state, and returns what it
  // returned or rethrows what it threw. Work there is kept to reading state: rendering it
  // (JSON, SVG, HTML) happens after, on the HTTP thread, since a large job's report (a
  // 64 MiB all-reduce plans ~30 000 tasks) takes long enough to delay the heartbeats'
  // echoes past an agent's patience when a script polls it.
  const auto from_io = [this](auto work) {
    std::promise<decltype(work())> done;
    asio::post(io_, [&] {
      try {
        done.set_value(work());
      } catch (...) {
        done.set_exception(std::current_exception());
      }
    });
    return done.get_future().get();  // the daemon stops the API before its io_context
  };
  // Answers with what `render` returns, as `type`, or with the error it threw as JSON: a
  // RequestError's status (request_error.h), 500 for anything else (a bug, said as one).
  const auto respond = [](httplib::Response& response, const char* type, auto render) {
    try {
      response.set_content(render(), type);
    } catch (const RequestError& e) {
      reply_error(response, e.failure(), e.what());
    } catch (const std::exception& e) {
      reply_error(response, RequestFailure::internal, std::string("internal error: ") + e.what());
    }
  };
  // Small answers made whole on the io thread: as `type`, or as JSON with `status`.
  const auto text_on_io = [from_io, respond](httplib::Response& response, const char* type,
                                             std::function<std::string()> work) {
    respond(response, type, [&] { return from_io(work); });
  };
  const auto on_io = [from_io, respond](httplib::Response& response, int status, std::function<Json()> work) {
    respond(response, "application/json", [&] {
      const Json body = from_io(work);
      response.status = status;
      return body.dump() + "\n";
    });
  };
  const auto id_of = [](const httplib::Request& request) { return path_id(request, "job"); };

  server_->set_pre_routing_handler([this](const httplib::Request& request, httplib::Response& response) {
    std::string token;
    {
      const std::lock_guard lock(token_mutex_);
      token = token_;
    }
    if (const std::optional<error::Refusal> refused = check_token(request, token)) {
      answer_unauthorized(response, *refused);
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server_->set_payload_max_length(64u << 20);
  // A kept-alive connection's answer leaves at once: without it, the body (a write after
  // the headers') waits for the client's delayed ack, 40 ms on Linux, at every wait's end.
  server_->set_tcp_nodelay(true);
  // Prometheus' text format (docs/metrics.md); the gauges read the driver's state, on its thread.
  server_->Get("/metrics", [=, this](const httplib::Request&, httplib::Response& response) {
    text_on_io(response, metrics::content_type, [this] { return driver_.metrics(); });
  });
  server_->Get("/v1/agents", [=, this](const httplib::Request&, httplib::Response& response) {
    on_io(response, 200, [this] {
      Json answer = driver_.agents();
      answer["refused"] = refused_json(registry_.refused(), std::chrono::steady_clock::now());
      answer["heartbeat_seconds"] = std::chrono::duration<double>(registry_.heartbeat_interval()).count();
      return answer;
    });
  });
  server_->Get("/v1/jobs", [=, this](const httplib::Request&, httplib::Response& response) {
    on_io(response, 200, [this] { return driver_.jobs(); });
  });
  server_->Post("/v1/jobs", [=, this](const httplib::Request& request, httplib::Response& response) {
    // Parsed and expanded here, on the HTTP thread: a job at the size limits takes seconds,
    // which the io thread (heartbeats) cannot spare.
    JobSpec spec;
    std::string journaled = request.body;
    try {
      spec = parse_job_spec(request.body);
      resolve_objects(spec);
      if (spec.kind != jobs::JobKind::redistribution) journaled = collective_json(spec.collective, spec.priority);
    } catch (const json::InputError& e) {
      reply_error(response, RequestFailure::bad_request, e.what());
      return;
    } catch (const RequestError& e) {
      reply_error(response, e.failure(), e.what());
      return;
    }
    respond(response, "application/json", [&] {
      const std::string admitted = from_io([&] { return driver_.admit(spec, journaled); });
      // Written here, on the HTTP thread: the store's commit never holds the io thread,
      // whose heartbeats' echoes keep every agent's session (Driver::admit says why).
      const journal::JobRecord record = driver_.journal_job(admitted, spec.identities);
      const std::uint64_t id = from_io([&] { return driver_.enqueue(record, std::move(spec)); });
      response.status = 201;
      return Json{{"id", std::to_string(id)}}.dump() + "\n";
    });
  });
  server_->Get(R"(/v1/jobs/([^/]+))", [=, this](const httplib::Request& request, httplib::Response& response) {
    respond(response, "application/json", [&] {
      const std::uint64_t id = id_of(request);
      // ?view=progress: the job without its plan's report, for watchers polling it (the
      // report of a job of 1 024 nodes and 32 steps is 32 768 node lines, built each time).
      const bool progress = request.has_param("view") && parse_job_view(request.get_param_value("view"));
      const auto look = [this, progress](std::uint64_t number) {
        return progress ? driver_.job_progress(number) : driver_.job_report(number);
      };
      const report::JobReport job = request.has_param("wait")
                                        ? job_after(id, parse_job_wait(request.get_param_value("wait")), look)
                                        : from_io([&] { return look(id); });
      return report::to_json(job).dump() + "\n";
    });
  });
  server_->Get(R"(/v1/jobs/([^/]+)/gantt\.svg)",
               [=, this](const httplib::Request& request, httplib::Response& response) {
                 respond(response, "image/svg+xml; charset=utf-8", [&] {
                   const report::JobReport job = from_io([&] { return driver_.job_report(id_of(request)); });
                   try {
                     return report::gantt_svg(job);
                   } catch (const error::InvalidInput& e) {  // no plan to draw yet
                     throw RequestError(RequestFailure::conflict, e.what());
                   }
                 });
               });
  // The status page (docs/status-page.md): "/" shows the newest job, "/jobs/{id}" another.
  const auto status_page = [=, this](httplib::Response& response, const std::string* id) {
    respond(response, "text/html; charset=utf-8", [&] {
      const report::StatusPage page = from_io([&] { return status_page_state(response, id); });
      return report::status_page_html(page);
    });
  };
  server_->Get("/", [=](const httplib::Request&, httplib::Response& response) { status_page(response, nullptr); });
  server_->Get(R"(/jobs/([^/]+))", [=](const httplib::Request& request, httplib::Response& response) {
    const std::string id = request.matches[1];
    status_page(response, &id);
  });
  // Calibrations (docs/calibration.md).
  const auto calibration_id = [](const httplib::Request& request) { return path_id(request, "calibration"); };
  // Read as it arrives, at most kMaxCalibrationBytes of it kept: the rest is read and
  // dropped (the client then reads the answer, not a reset connection).
  server_->Post("/v1/calibrations",
                [=, this](const httplib::Request&, httplib::Response& response, const httplib::ContentReader& content) {
                  std::string body;
                  std::size_t received = 0;
                  const bool whole = content([&](const char* data, std::size_t length) {
                    received += length;
                    if (received <= kMaxCalibrationBytes) body.append(data, length);
                    return true;
                  });
                  if (!whole) return;  // cut off, or past the API's cap: cpp-httplib answers
                  if (received > kMaxCalibrationBytes) {
                    reply_error(response, RequestFailure::too_large,
                                "the calibration request holds " + std::to_string(received) + " bytes, more than the " +
                                    std::to_string(kMaxCalibrationBytes >> 20) + " MiB a calibration takes");
                    return;
                  }
                  CalibrationRequest calibration;
                  try {
                    calibration = parse_calibration_request(body);
                  } catch (const json::InputError& e) {
                    reply_error(response, RequestFailure::bad_request, e.what());
                    return;
                  }
                  on_io(response, 201, [this, &body, &calibration] {
                    return Json{{"id", std::to_string(driver_.calibrator().calibrate(std::move(calibration), body))}};
                  });
                });
  server_->Get("/v1/calibrations", [=, this](const httplib::Request&, httplib::Response& response) {
    on_io(response, 200, [this] { return driver_.calibrator().calibrations(); });
  });
  server_->Get(R"(/v1/calibrations/([^/]+))", [=, this](const httplib::Request& request, httplib::Response& response) {
    on_io(response, 200,
          [this, &request, calibration_id] { return driver_.calibrator().calibration(calibration_id(request)); });
  });
  server_->Delete(
      R"(/v1/calibrations/([^/]+))", [=, this](const httplib::Request& request, httplib::Response& response) {
        on_io(response, 200,
              [this, &request, calibration_id] { return driver_.calibrator().cancel(calibration_id(request)); });
      });
  server_->Get(R"(/v1/calibrations/([^/]+)/curve\.svg)",
               [=, this](const httplib::Request& request, httplib::Response& response) {
                 respond(response, "image/svg+xml; charset=utf-8", [&] {
                   const report::CalibrationReport calibration =
                       from_io([&] { return driver_.calibrator().report(calibration_id(request)); });
                   try {
                     return report::calibration_svg(calibration);
                   } catch (const error::InvalidInput& e) {  // not done: no curve to draw yet
                     throw RequestError(RequestFailure::conflict, e.what());
                   }
                 });
               });
  server_->Post(R"(/v1/jobs/([^/]+)/cancel)", [=, this](const httplib::Request& request, httplib::Response& response) {
    on_io(response, 200, [this, &request, id_of] { return driver_.cancel(id_of(request)); });
  });

  serving_.start(address, "API");
}

report::StatusPage Api::status_page_state(httplib::Response& response, const std::string* id) const {
  report::StatusPage page;
  page.coordinator = driver_.status();
  page.agents = driver_.agents();
  page.jobs = driver_.jobs();
  page.calibration = driver_.calibrator().latest();
  response.status = show_job(page, id, [this](std::uint64_t number) { return driver_.job_report(number); });
  return page;
}

void Api::resolve_objects(JobSpec& spec) {
  // The answers arrive on the io thread; this thread waits for them, then gives up on the
  // nodes that stay silent (the give-up runs on the io thread too, and answers the future).
  std::promise<ObjectAnswers> answered;
  std::future<ObjectAnswers> answers = answered.get_future();
  std::promise<std::uint64_t> asked;
  const auto objects = spec.objects();  // here: a redistribution may hold millions of transfers
  asio::post(io_, [&] {
    try {
      asked.set_value(
          driver_.ask_objects(spec, objects, [&answered](ObjectAnswers a) { answered.set_value(std::move(a)); }));
    } catch (...) {
      asked.set_exception(std::current_exception());
    }
  });
  const std::uint64_t query = asked.get_future().get();  // throws the driver's RequestError
  if (answers.wait_for(driver_.options().object_query_timeout) != std::future_status::ready) {
    asio::post(io_, [this, query] { driver_.give_up_objects(query); });
  }
  const ObjectAnswers got = answers.get();
  for (const auto& [object, facts] : got.facts) spec.identities[object] = facts.identity;
  // A redistribution reads its sources when it runs, and may wait for a node that is down:
  // its names unanswered are compared as written (jobs::FileIdentities).
  if (spec.kind == jobs::JobKind::redistribution) return;
  if (!got.silent.empty()) {
    std::string silent;
    for (const std::string& node : got.silent) silent += (silent.empty() ? "" : ", ") + node;
    const auto seconds = std::chrono::duration<double>(driver_.options().object_query_timeout).count();
    throw RequestError(RequestFailure::bad_request,
                       "nodes did not say within " + std::to_string(static_cast<int>(seconds)) +
                           " s whether they hold the job's files (ObjectQuery): " + silent);
  }
  try {
    collectives::resolve_ranges(spec.collective, [&](const std::string& node, const std::string& file) {
      const auto found = got.facts.find({node, file});
      return found == got.facts.end() ? nullptr : &found->second;
    });
  } catch (const error::InvalidInput& e) {
    throw RequestError(RequestFailure::bad_request, e.what());
  }
}

report::JobReport Api::job_after(std::uint64_t id, std::chrono::milliseconds wait,
                                 const std::function<report::JobReport(std::uint64_t)>& look) {
  const auto deadline = JobEndSignal::Clock::now() + wait;
  for (;;) {
    const std::uint64_t seen = job_ends_.generation();
    std::promise<report::JobReport> looked;
    asio::post(io_, [&] {
      try {
        looked.set_value(look(id));
      } catch (...) {
        looked.set_exception(std::current_exception());
      }
    });
    report::JobReport job = looked.get_future().get();  // throws the driver's RequestError (no such job)
    const std::string& state = job.state;
    if (state == "done" || state == "failed" || state == "cancelled" || !job_ends_.wait_after(seen, deadline)) {
      return job;
    }
  }
}

void Api::set_token(std::string token) {
  const std::lock_guard lock(token_mutex_);
  token_ = std::move(token);
}

void Api::stop() {
  job_ends_.stop();
  serving_.stop();
}

}  // namespace baton::coordinator
