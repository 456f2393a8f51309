#include "coordinator/batonctl/job_commands.h"

#include "coordinator/batonctl/api_command.h"
#include "coordinator/batonctl/job_text.h"
#include "coordinator/report/gantt_svg.h"
#include "error/error.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>
#include <utility>

namespace baton::batonctl {

using json::InputError;
using json::Json;
using json::parse_document;
using json::read_input;

namespace {

std::string job_path(const std::string& id) { return "/v1/jobs/" + id; }

// The job in the coordinator's answer, typed; an answer that is not a job is the
// coordinator's error, not the user's.
report::JobReport job_of(const Json& answer) {
  try {
    return report::parse_job_report(answer);
  } catch (const InputError& e) {
    throw ApiError(0, std::string("the coordinator's answer is not a job: ") + e.what());
  }
}

bool terminal(const std::string& state) { return state == "done" || state == "failed" || state == "cancelled"; }

// A member of an answer as text ("" when missing), for the answers that are not a job.
std::string member_text(const Json& answer, const char* name) {
  if (!answer.is_object() || !answer.contains(name)) return "";
  const Json& v = answer.at(name);
  return v.is_string() ? v.get<std::string>() : v.dump();
}

int watch(const ApiClient& api, const std::string& id, const std::string& output) {
  const bool tty = isatty(1) != 0;
  std::string last_step_key;
  // The rate over the last few seconds of polls: per poll, it read 0 B/s between two step
  // ends whenever a step outlasted a poll.
  std::deque<std::pair<std::chrono::steady_clock::time_point, double>> recent;
  double rate = -1;
  bool drew = false;
  Json answer;
  report::JobReport job;
  // After the first poll each asks the coordinator to answer at the job's end or after
  // kPoll, whichever comes first (GET /v1/jobs/ID?wait=, docs/runtime.md): the watch ends
  // when the job does, not up to a poll later. An answer that comes sooner without the job
  // having ended (a coordinator that does not wait) is followed by the rest of kPoll asleep;
  // the first, which does not wait, is followed by the first wait at once (a 10 ms job took
  // 0.5 s to be seen done). Polls ask for the job's progress only (view=progress): its
  // report, which grows with the job's nodes times its steps, is fetched once, at the end.
  constexpr auto kPoll = std::chrono::milliseconds(500);
  const std::string waiting = job_path(id) + "?wait=0.5&view=progress";  // kPoll, in the API's seconds
  for (bool first = true;; first = false) {
    const auto asked = std::chrono::steady_clock::now();
    answer = api.get(first ? job_path(id) + "?view=progress" : waiting);
    job = job_of(answer);
    const auto now = std::chrono::steady_clock::now();
    const double done = static_cast<double>(job.bytes_done + job.step_bytes_done);
    recent.emplace_back(now, done);
    while (now - recent.front().first > std::chrono::seconds(5)) recent.pop_front();
    const double span = std::chrono::duration<double>(now - recent.front().first).count();
    if (span >= 1) rate = (done - recent.front().second) / span;
    if (output != "json") {
      if (tty) {
        std::cout << '\r' << progress_line(job, rate) << "\x1b[K" << std::flush;
        drew = true;
      } else {
        const std::string key = job.state + "/" + std::to_string(job.step);
        if (key != last_step_key) {
          std::cout << "job " << id << ": " << progress_line(job, -1) << '\n' << std::flush;
          last_step_key = key;
        }
      }
    }
    if (terminal(job.state)) break;
    if (!first) std::this_thread::sleep_until(asked + kPoll);
  }
  answer = api.get(job_path(id));  // the whole job, its report with it
  job = job_of(answer);
  if (drew) std::cout << '\n';
  if (output == "json") {
    std::cout << answer.dump(1) << '\n';
  } else if (job.report) {
    std::cout << '\n' << report_text(*job.report);
  }
  if (job.state == "done") return 0;
  std::cerr << "batonctl: job " << id << " " << job.state << ": " << job.error << '\n';
  return 1;
}

// Every job command's --help ends with its examples and the exit codes.
constexpr const char* kExitCodes =
    "Exit status: 0 success; 1 the job failed or was cancelled, or the coordinator answered\n"
    "an error; 2 bad input or usage; 3 the coordinator cannot be reached.";

CLI::App* add_sub(CLI::App& app, const std::string& name, const std::string& summary, ApiOptions& options, bool output,
                  const std::string& examples) {
  CLI::App* sub = app.add_subcommand(name, summary);
  sub->footer("Examples:\n" + examples + kExitCodes);
  add_api_options(sub, options, output);
  return sub;
}

// A subcommand about one job: its API options and the job's id, filled in before it runs.
struct JobCommand {
  std::shared_ptr<ApiOptions> options;
  std::shared_ptr<std::string> id;
  CLI::App* sub;
};

JobCommand add_job_sub(CLI::App& app, const std::string& name, const std::string& summary, bool output,
                       const std::string& examples) {
  JobCommand command{std::make_shared<ApiOptions>(), std::make_shared<std::string>(), nullptr};
  command.sub = add_sub(app, name, summary, *command.options, output, examples);
  command.sub->add_option("ID", *command.id, "job id")->required();
  return command;
}

}  // namespace

void add_job_commands(CLI::App& app, int* exit_code) {
  {
    auto c = std::make_shared<ApiOptions>();
    auto file = std::make_shared<std::string>();
    auto algo = std::make_shared<std::string>();
    auto wait = std::make_shared<bool>(false);
    CLI::App* sub = add_sub(app, "submit", "Submit a job (JSON, see runtime.md); print its id", *c, true,
                            "  batonctl submit job.json                 # prints the id, e.g. 7\n"
                            "  batonctl submit job.json --algo ggp --wait   # then follow it, print its report\n"
                            "  batonctl submit - --wait -o json < job.json\n");
    sub->add_option("JOB", *file, "job as JSON (- for stdin)")->required();
    sub->add_option("--algo", *algo, "override the job's \"algorithm\"");
    sub->add_flag("--wait", *wait, "then watch the job until it ends");
    sub->callback([=] {
      *exit_code = guarded([&] {
        const std::string text = read_input(*file);  // its errors name the file
        Json job;
        try {
          job = parse_document(text);
        } catch (const InputError& e) {
          std::string what = e.what();
          if (what.starts_with("input: ")) what.erase(0, 7);
          throw InputError(*file + ": " + what);
        }
        if (!job.is_object()) throw InputError(*file + ": the job must be a JSON object");
        if (!algo->empty()) job["algorithm"] = *algo;
        const ApiClient api = client_of(*c);
        const Json answer = api.post("/v1/jobs", job);
        const std::string id = member_text(answer, "id");
        if (id.empty()) throw ApiError(0, "the coordinator's answer has no job id");
        std::cout << id << '\n' << std::flush;
        return *wait ? watch(api, id, c->output) : 0;
      });
    });
  }
  {
    const auto [c, id, sub] = add_job_sub(app, "status", "Show one job: state, progress, report", true,
                                          "  batonctl status 7\n"
                                          "  batonctl status 7 -o json | jq .report.measured_seconds\n");
    // c and id are structured bindings, captured by name: Clang 14 captures them no other way.
    sub->callback([=, c = c, id = id] {
      *exit_code = guarded([&] {
        const Json answer = client_of(*c).get(job_path(*id));
        std::cout << (c->output == "json" ? answer.dump(1) + '\n' : job_status_text(job_of(answer)));
        return 0;
      });
    });
  }
  for (const std::string what : {"jobs", "agents"}) {
    auto c = std::make_shared<ApiOptions>();
    CLI::App* sub =
        add_sub(app, what, what == "jobs" ? "List the jobs" : "List the agents and their health", *c, true,
                what == "jobs" ? "  batonctl jobs\n"
                                 "  batonctl jobs -o json | jq -r '.jobs[] | select(.state == \"failed\") | .id'\n"
                               : "  batonctl agents --coordinator http://10.0.0.1:7070 --token-file ~/.baton/token\n"
                                 "  batonctl agents -o json | jq '.agents[] | select(.alive | not)'\n");
    sub->callback([=] {
      *exit_code = guarded([&] {
        const Json answer = client_of(*c).get("/v1/" + what);
        if (c->output == "json") std::cout << answer.dump(1) << '\n';
        else std::cout << (what == "jobs" ? jobs_table(answer) : agents_table(answer));
        return 0;
      });
    });
  }
  {
    const auto [c, id, sub] = add_job_sub(app, "cancel", "Cancel a job", false, "  batonctl cancel 7\n");
    sub->callback([=, c = c, id = id] {
      *exit_code = guarded([&] {
        const Json answer = client_of(*c).post(job_path(*id) + "/cancel", Json::object());
        std::cout << "job " << *id << ": " << member_text(answer, "state") << '\n';
        return 0;
      });
    });
  }
  {
    const auto [c, id, sub] =
        add_job_sub(app, "watch", "Follow a job until it ends, then print its report; exit 0 if done", true,
                    "  batonctl watch 7          # progress line, then the report\n"
                    "  batonctl watch 7 -o json  # the final job as JSON\n");
    sub->callback([=, c = c, id = id] { *exit_code = guarded([&] { return watch(client_of(*c), *id, c->output); }); });
  }
  {
    auto svg = std::make_shared<std::string>();
    const auto [c, id, sub] =
        add_job_sub(app, "report", "Show a job's report: each step and each node, planned against measured", true,
                    "  batonctl report 7                    # tables: steps, then nodes per step\n"
                    "  batonctl report 7 --svg gantt.svg    # also the Gantt chart, as on the status page\n"
                    "  batonctl report 7 --svg - > g.svg    # only the chart, on stdout\n"
                    "  batonctl report 7 -o json            # the report's JSON\n");
    sub->add_option("--svg", *svg, "write the Gantt chart (plan against measured, per node) to FILE; - for stdout");
    sub->callback([=, c = c, id = id] {
      *exit_code = guarded([&] {
        const Json answer = client_of(*c).get(job_path(*id));
        const report::JobReport job = job_of(answer);
        if (!job.report) throw ApiError(0, "job " + *id + " has no report yet (state " + job.state + ")");
        if (!svg->empty()) {
          std::string chart;
          try {
            chart = baton::report::gantt_svg(job);
          } catch (const error::InvalidInput& e) {
            throw ApiError(0, e.what());
          }
          if (*svg == "-") {
            std::cout << chart;
            return 0;
          }
          std::ofstream file(*svg, std::ios::binary | std::ios::trunc);
          if (!(file << chart) || !file.flush()) throw InputError(*svg + ": cannot write: " + std::strerror(errno));
        }
        if (c->output == "json") std::cout << answer.at("report").dump(1) << '\n';
        else std::cout << report_text(*job.report) << '\n' << nodes_table(*job.report);
        if (c->output != "json" && !job.report->steps.empty() && !job.report->steps[0].tasks.empty()) {
          std::cout << '\n' << tasks_table(*job.report);
        }
        return 0;
      });
    });
  }
}

}  // namespace baton::batonctl
