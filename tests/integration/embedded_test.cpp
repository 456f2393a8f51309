// The embedded API with a real coordinator and real daemon agents: an application's
// memory regions take part in jobs as nodes (agent/embedded.h). Checks read the memory,
// the daemons' files and the coordinator's API.
#include "agent/embedded.h"
#include "tests/integration/cluster.h"

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <filesystem>
#include <random>

#include <fcntl.h>

using baton::test::Cluster;
using baton::test::Json;
using baton::test::read_file;
using baton::test::write_random_file;
using namespace std::chrono_literals;

namespace {

Json transfer(const std::string& src, const std::string& src_file, std::uint64_t src_offset, std::uint64_t length,
              const std::string& dst, const std::string& dst_file, std::uint64_t dst_offset) {
  return {{"src_node", src}, {"src_file", src_file}, {"src_offset", src_offset}, {"length", length},
          {"dst_node", dst}, {"dst_file", dst_file}, {"dst_offset", dst_offset}};
}

Json job(const Json& transfers) {
  return {
      {"senders", {"sim0", "a0"}},
      {"receivers", {"b0", "sim1"}},
      {"platform", {{"sender_rate", 50e6}, {"receiver_rate", 50e6}, {"backbone_rate", 100e6}, {"step_startup", 0.001}}},
      {"transfers", transfers}};
}

std::vector<std::byte> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::byte> bytes(n);
  for (std::byte& b : bytes) b = static_cast<std::byte>(rng());
  return bytes;
}

std::string as_string(const std::vector<std::byte>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// Two daemon agents (a0 sends a file, b0 receives one) and two embedded nodes in this
// process (sim0 sends its region "u", sim1 receives into its region "v"), each on a thread
// of its own or both on `loop`.
struct MixedCluster {
  Cluster cluster;
  std::string a0_file = write_random_file(cluster.root("a0") / "in.bin", 1'000'000, 7);
  std::vector<std::byte> u = random_bytes(1'000'000, 8);
  std::vector<std::byte> v = std::vector<std::byte>(1'000'000);
  std::unique_ptr<baton::EmbeddedAgent> sim0, sim1;

  explicit MixedCluster(std::shared_ptr<baton::EmbeddedLoop> loop = nullptr) {
    cluster.start_agent("a0");
    cluster.start_agent("b0");
    for (auto [slot, name] : {std::pair{&sim0, "sim0"}, std::pair{&sim1, "sim1"}}) {
      *slot = std::make_unique<baton::EmbeddedAgent>(baton::EmbeddedOptions{.node_id = name,
                                                                            .coordinator = cluster.agents_address(),
                                                                            .secret = cluster.secret(),
                                                                            .rate = 50e6,
                                                                            .loop = loop});
    }
    sim0->register_region("u", u);
    sim1->register_region("v", v);
    BOOST_REQUIRE(sim0->wait_registered(10s));
    BOOST_REQUIRE(sim1->wait_registered(10s));
    BOOST_REQUIRE_MESSAGE(cluster.wait_alive(4), cluster.coordinator_log());
  }

  std::string submit(const Json& spec) {
    const auto [status, body] = cluster.post("/v1/jobs", spec.dump());
    BOOST_REQUIRE_MESSAGE(status == 201, "submit answered " << status << ": " << body.dump());
    return body.at("id").get<std::string>();
  }
};

// The sockets this process holds (/proc/self/fd), each as (descriptor, close-on-exec).
std::vector<std::pair<int, bool>> sockets_held() {
  std::vector<std::pair<int, bool>> held;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    if (!std::filesystem::read_symlink(entry.path(), ec).string().starts_with("socket:")) continue;
    const int fd = std::stoi(entry.path().filename().string());
    const int flags = ::fcntl(fd, F_GETFD);
    if (flags >= 0) held.emplace_back(fd, (flags & FD_CLOEXEC) != 0);
  }
  return held;
}

std::size_t threads_running() {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator("/proc/self/task"), {}));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(embedded)

BOOST_AUTO_TEST_CASE(memory_regions_send_to_files_and_receive_from_them) {
  MixedCluster m;
  const std::string id = m.submit(job(
      {transfer("sim0", "u", 0, 1'000'000, "b0", "u.bin", 0), transfer("a0", "in.bin", 0, 1'000'000, "sim1", "v", 0)}));
  BOOST_TEST(m.sim1->wait_job(id, 60s) == "done");
  BOOST_TEST(m.sim0->wait_job(id, 60s) == "done");
  const Json done = m.cluster.wait_job(id);
  BOOST_TEST(done.value("state", "") == "done", done.dump() << "\n" << m.cluster.coordinator_log());
  BOOST_TEST((as_string(m.v) == m.a0_file));
  BOOST_TEST((read_file(m.cluster.root("b0") / "u.bin") == as_string(m.u)));
  BOOST_TEST(m.sim1->status().find("done") != std::string::npos, m.sim1->status());
  // A program the application starts inherits none of the agents' sockets. The test's own
  // HTTP requests are over, so the sockets held now are the two agents': each one's
  // listener and coordinator session, and the data connections they keep.
  const auto held = sockets_held();
  BOOST_TEST(held.size() >= 4u);
  for (const auto& [fd, closed_on_exec] : held) BOOST_TEST(closed_on_exec, "socket " << fd << " is inherited by exec");
}

BOOST_AUTO_TEST_CASE(a_plan_writing_past_a_region_is_refused_before_any_byte_moves) {
  MixedCluster m;
  const std::string id = m.submit(job(Json::array({transfer("a0", "in.bin", 0, 200'000, "sim1", "v", 900'000)})));
  const Json done = m.cluster.wait_job(id);
  BOOST_TEST(done.value("state", "") == "failed", done.dump());
  const std::string error = done.value("error", "");
  BOOST_TEST(error.find("agent sim1 refused the plan") != std::string::npos, error);
  BOOST_TEST(error.find("destination range [900000, 1100000) is outside v (1000000 bytes)") != std::string::npos,
             error);
  BOOST_TEST((m.v == std::vector<std::byte>(1'000'000)), "region v was written");
}

BOOST_AUTO_TEST_CASE(a_plan_naming_an_unregistered_region_is_refused_with_its_name) {
  MixedCluster m;
  m.sim0->unregister_region("u");
  const std::string id = m.submit(job(Json::array({transfer("sim0", "u", 0, 1000, "b0", "u.bin", 0)})));
  const Json done = m.cluster.wait_job(id);
  BOOST_TEST(done.value("state", "") == "failed", done.dump());
  const std::string error = done.value("error", "");
  BOOST_TEST(error.find("agent sim0 refused the plan") != std::string::npos, error);
  BOOST_TEST(error.find("no memory region named 'u' is registered") != std::string::npos, error);
  BOOST_TEST(!std::filesystem::exists(m.cluster.root("b0") / "u.bin"));
}

// Two agents of this process on one loop (EmbeddedLoop): each runs its part of a job, one
// that fails to start leaves the loop to the others, and one that ends leaves the other
// running its next job.
BOOST_AUTO_TEST_CASE(agents_sharing_a_loop_run_jobs_and_end_one_at_a_time) {
  auto loop = std::make_shared<baton::EmbeddedLoop>();
  MixedCluster m(loop);
  BOOST_CHECK_EXCEPTION(baton::EmbeddedAgent(baton::EmbeddedOptions{.node_id = "sim2",
                                                                    .coordinator = m.cluster.agents_address(),
                                                                    .secret = m.cluster.secret(),
                                                                    .data_address = "no-such-host.invalid:1",
                                                                    .loop = loop}),
                        std::exception, [](const std::exception& e) {
                          BOOST_TEST_MESSAGE(e.what());
                          return std::string(e.what()).find("no-such-host.invalid") != std::string::npos;
                        });
  // One more agent on the loop runs on its thread: the process gains none.
  const auto threads = threads_running();
  auto sim2 = std::make_unique<baton::EmbeddedAgent>(baton::EmbeddedOptions{
      .node_id = "sim2", .coordinator = m.cluster.agents_address(), .secret = m.cluster.secret(), .loop = loop});
  BOOST_TEST(sim2->wait_registered(10s));
  BOOST_TEST(threads_running() == threads);
  const std::string first = m.submit(job(
      {transfer("sim0", "u", 0, 1'000'000, "b0", "u.bin", 0), transfer("a0", "in.bin", 0, 1'000'000, "sim1", "v", 0)}));
  BOOST_TEST(m.sim1->wait_job(first, 60s) == "done");
  BOOST_TEST(m.sim0->wait_job(first, 60s) == "done");
  BOOST_TEST(m.cluster.wait_job(first).value("state", "") == "done", m.cluster.coordinator_log());
  BOOST_TEST((as_string(m.v) == m.a0_file));
  BOOST_TEST((read_file(m.cluster.root("b0") / "u.bin") == as_string(m.u)));

  m.sim0.reset();
  std::fill(m.v.begin(), m.v.end(), std::byte{0});
  const std::string second = m.submit(
      {{"senders", {"a0"}},
       {"receivers", {"sim1"}},
       {"platform", {{"sender_rate", 50e6}, {"receiver_rate", 50e6}, {"backbone_rate", 50e6}, {"step_startup", 0.001}}},
       {"transfers", {transfer("a0", "in.bin", 0, 1'000'000, "sim1", "v", 0)}}});
  BOOST_TEST(m.sim1->wait_job(second, 60s) == "done");
  BOOST_TEST(m.cluster.wait_job(second).value("state", "") == "done", m.cluster.coordinator_log());
  BOOST_TEST((as_string(m.v) == m.a0_file));
}

BOOST_AUTO_TEST_SUITE_END()
