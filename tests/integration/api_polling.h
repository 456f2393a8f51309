// Polling a coordinator's HTTP API until something holds, for the integration tests that
// drive coordinators of their own (standbys on etcd): `get` answers a path's JSON, or null
// when the coordinator did not answer.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <thread>

namespace baton::test {

using ApiGet = std::function<nlohmann::json(const std::string& path)>;

// Whether `count` agents are alive in /v1/agents within `limit`.
inline bool wait_agents_alive(const ApiGet& get, std::size_t count, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    const nlohmann::json body = get("/v1/agents");
    std::size_t alive = 0;
    if (body.is_object() && body.contains("agents")) {
      for (const nlohmann::json& a : body.at("agents")) alive += a.value("alive", false) ? 1 : 0;
    }
    if (alive >= count) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// Job `id` once it ended (done, failed or cancelled), or its last answer after `limit`.
inline nlohmann::json wait_job_ended(const ApiGet& get, const std::string& id, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  nlohmann::json job;
  while (std::chrono::steady_clock::now() < deadline) {
    job = get("/v1/jobs/" + id);
    const std::string state = job.is_object() ? job.value("state", "") : "";
    if (state == "done" || state == "failed" || state == "cancelled") return job;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return job;
}

}  // namespace baton::test
