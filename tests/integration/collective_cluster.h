// A loopback cluster for the collectives' integration tests: agents n0..n{N-1} with unequal
// declared rates (which pace their flows, so the schedules see heterogeneous nodes), jobs
// submitted over the HTTP API and awaited.
#pragma once

#include "tests/integration/cluster.h"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace baton::test {

// Three speeds, slow nodes first: the SNF paper's heterogeneous shape in small.
inline const std::vector<std::uint64_t> kThreeSpeeds{10'000'000, 10'000'000, 25'000'000, 25'000'000, 25'000'000,
                                                     60'000'000, 60'000'000, 60'000'000, 60'000'000};

struct CollectiveCluster {
  Cluster cluster;
  std::vector<std::string> nodes;

  explicit CollectiveCluster(const std::vector<std::uint64_t>& rates = kThreeSpeeds) {
    for (std::size_t i = 0; i < rates.size(); ++i) {
      nodes.push_back("n" + std::to_string(i));
      cluster.start_agent(nodes.back(), {}, {}, rates[i]);
    }
    BOOST_REQUIRE_MESSAGE(cluster.wait_alive(rates.size()), cluster.coordinator_log());
  }

  // Submits `job` and waits until it ends: GET /v1/jobs/ID once it is done, or nothing (the
  // failure recorded, naming the job, the answer and the coordinator's log) when it was
  // refused or did not finish, so that one broken algorithm does not hide the others.
  std::optional<Json> run(const Json& job) {
    const auto [status, body] = cluster.post("/v1/jobs", job.dump());
    if (status != 201) {
      BOOST_ERROR("submit answered " << status << ": " << body.dump() << "\n" << job.dump());
      return std::nullopt;
    }
    const Json done = cluster.wait_job(body.at("id").get<std::string>());
    if (done.value("state", "") != "done") {
      BOOST_ERROR(job.dump() << "\n" << done.dump() << "\n" << cluster.coordinator_log());
      return std::nullopt;
    }
    return done;
  }
};

}  // namespace baton::test
