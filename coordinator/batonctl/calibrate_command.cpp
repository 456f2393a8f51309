#include "coordinator/batonctl/calibrate_command.h"

#include "coordinator/batonctl/api_client.h"
#include "coordinator/batonctl/api_command.h"
#include "coordinator/batonctl/calibration_text.h"

#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

namespace baton::batonctl {
namespace {

using json::InputError;
using json::Json;

std::string state_of(const Json& c) { return c.is_object() ? c.value("state", std::string()) : ""; }

// The text of an answer, read by the typed report; an answer it cannot read is the
// coordinator's error, not the user's (exit 1, as for a job).
std::string text_of(const Json& answer, std::string (*format)(const Json&)) {
  try {
    return format(answer);
  } catch (const InputError& e) {
    throw ApiError(0, std::string("the coordinator's answer is not a calibration: ") + e.what());
  }
}

}  // namespace

void add_calibrate_commands(CLI::App& app, int* exit_code) {
  constexpr const char* kExit =
      "Exit status: 0 done; 1 the calibration failed or the coordinator answered an error;\n"
      "2 bad input or usage; 3 the coordinator cannot be reached.";
  {
    auto o = std::make_shared<ApiOptions>();
    auto senders = std::make_shared<std::vector<std::string>>();
    auto receivers = std::make_shared<std::vector<std::string>>();
    auto flow_seconds = std::make_shared<double>(0);
    auto cancel = std::make_shared<std::string>();
    CLI::App* sub = app.add_subcommand(
        "calibrate", "Measure d, D, beta and k between two groups of nodes (probe flows on the agents)");
    sub->footer(std::string("Examples:\n"
                            "  batonctl calibrate --senders s1,s2,s3 --receivers r1,r2,r3\n"
                            "  batonctl calibrate --senders s1,s2 --receivers r1,r2 -o json | jq .k\n"
                            "  batonctl calibrate --cancel 3   # a queued or running calibration\n"
                            "Jobs without \"platform\" are then planned on the newest calibration of their nodes.\n") +
                kExit);
    add_api_options(sub, *o);
    CLI::Option* cancel_option =
        sub->add_option("--cancel", *cancel, "cancel calibration ID instead (queued: it never runs; running: it ends)");
    sub->add_option("--senders", *senders, "the sending group's nodes")->delimiter(',')->excludes(cancel_option);
    sub->add_option("--receivers", *receivers, "the receiving group's nodes")->delimiter(',')->excludes(cancel_option);
    sub->add_option("--flow-seconds", *flow_seconds, "how long one probe flow lasts (default 0.4)")
        ->check(CLI::Range(0.05, 10.0));
    sub->callback([=] {
      *exit_code = guarded([&] {
        if (!cancel->empty()) {
          const Json answer = client_of(*o).remove("/v1/calibrations/" + *cancel);
          if (o->output == "json") std::cout << answer.dump(1) << '\n';
          else std::cout << "calibration " << *cancel << ": " << state_of(answer) << '\n';
          return 0;
        }
        if (senders->empty() || receivers->empty())
          throw InputError("calibrate needs --senders and --receivers (or --cancel ID)");
        Json request{{"senders", *senders}, {"receivers", *receivers}};
        if (*flow_seconds > 0) request["flow_seconds"] = *flow_seconds;
        const ApiClient api = client_of(*o);
        const Json answer = api.post("/v1/calibrations", request);
        if (!answer.is_object() || !answer.contains("id") || !answer["id"].is_string())
          throw ApiError(0, "the coordinator's answer has no calibration id");
        const std::string path = "/v1/calibrations/" + answer["id"].get<std::string>();
        Json c;
        for (;;) {
          c = api.get(path);
          if (state_of(c) == "done" || state_of(c) == "failed" || state_of(c) == "cancelled") break;
          std::this_thread::sleep_for(std::chrono::milliseconds(300));
        }
        std::cout << (o->output == "json" ? c.dump(1) + '\n' : text_of(c, calibration_text));
        return state_of(c) == "done" ? 0 : 1;
      });
    });
  }
  {
    auto o = std::make_shared<ApiOptions>();
    auto id = std::make_shared<std::string>();
    CLI::App* sub = app.add_subcommand("calibrations", "List the calibrations, or show one with its curve");
    sub->footer(std::string("Examples:\n"
                            "  batonctl calibrations\n"
                            "  batonctl calibrations 3 -o json\n") +
                kExit);
    add_api_options(sub, *o);
    sub->add_option("ID", *id, "one calibration to show");
    sub->callback([=] {
      *exit_code = guarded([&] {
        const ApiClient api = client_of(*o);
        const Json answer = api.get(id->empty() ? "/v1/calibrations" : "/v1/calibrations/" + *id);
        if (o->output == "json") std::cout << answer.dump(1) << '\n';
        else std::cout << text_of(answer, id->empty() ? calibrations_table : calibration_text);
        return 0;
      });
    });
  }
}

}  // namespace baton::batonctl
