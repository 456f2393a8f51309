// In-place redistribution with real processes: the same nodes send and receive, reading
// and writing the same file (docs/runtime.md, "In-place jobs"). The security review saw
// such a job reported done with 3072 pages wrong under all-at-once.
#include "tests/integration/cluster.h"

#include <boost/test/unit_test.hpp>

#include <thread>

using baton::test::Cluster;
using baton::test::Json;
using baton::test::read_file;
using baton::test::write_random_file;
using namespace std::chrono_literals;

namespace {

constexpr std::size_t kNodes = 3;
constexpr std::size_t kBlock = 100'000;
constexpr std::size_t kPart = 1'000'000;  // each node's part, before and after

const std::vector<std::string> kNames{"n0", "n1", "n2"};

// The array block-wise over the nodes, one part per node in array.bin.
struct InPlace {
  Cluster cluster;
  std::string array;
  InPlace() {
    for (std::size_t p = 0; p < kNodes; ++p) cluster.start_agent(kNames[p]);
    BOOST_REQUIRE_MESSAGE(cluster.wait_alive(kNodes), cluster.coordinator_log());
  }
  void write_parts(unsigned seed) {
    array.clear();
    for (std::size_t p = 0; p < kNodes; ++p) {
      array += write_random_file(cluster.root(kNames[p]) / "array.bin", kPart, seed + static_cast<unsigned>(p));
    }
  }
  // Block-cyclic with kBlock-byte blocks, computed here from the array, not by Baton.
  std::string expected_part(std::size_t node) const {
    std::string out;
    for (std::size_t block = node; block * kBlock < array.size(); block += kNodes)
      out += array.substr(block * kBlock, kBlock);
    return out;
  }
  Json job(const std::string& algorithm, double rate, const std::string& dst_file = "array.bin") const {
    return {{"senders", kNames},
            {"receivers", kNames},
            {"algorithm", algorithm},
            {"platform",
             {{"sender_rate", rate}, {"receiver_rate", rate}, {"backbone_rate", 2 * rate}, {"step_startup", 0.001}}},
            {"pattern",
             {{"bytes", kNodes * kPart},
              {"from", "block"},
              {"to", "block-cyclic"},
              {"to_block", kBlock},
              {"src_file", "array.bin"},
              {"dst_file", dst_file}}}};
  }
  std::string submit(const Json& body) {
    const auto [status, answer] = cluster.post("/v1/jobs", body.dump());
    BOOST_REQUIRE_MESSAGE(status == 201, "submit answered " << status << ": " << answer.dump());
    return answer.at("id").get<std::string>();
  }
  // Two more names of array.bin on every node that only the agents can tell apart from
  // other files: linked/array.bin through a symlinked directory, and hard.bin, a hard link.
  void link_names() {
    for (const std::string& node : kNames) {
      std::filesystem::remove(cluster.root(node) / "linked");
      std::filesystem::create_directory_symlink(".", cluster.root(node) / "linked");
      std::filesystem::remove(cluster.root(node) / "hard.bin");
      std::filesystem::create_hard_link(cluster.root(node) / "array.bin", cluster.root(node) / "hard.bin");
    }
  }
  std::size_t staging_files() const {
    std::size_t n = 0;
    for (const std::string& node : kNames) {
      for (const auto& entry : std::filesystem::directory_iterator(cluster.root(node))) {
        n += entry.path().filename().string().find(".baton-") != std::string::npos ? 1 : 0;
      }
    }
    return n;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(in_place)

BOOST_AUTO_TEST_CASE(an_in_place_redistribution_leaves_every_byte_where_the_layout_says) {
  InPlace t;
  unsigned seed = 20;
  for (const std::string algorithm : {"all-at-once", "oggp", "oggp-plus"}) {
    t.write_parts(seed += 10);
    const Json done = t.cluster.wait_job(t.submit(t.job(algorithm, 50e6)));
    BOOST_TEST_REQUIRE(done.value("state", "") == "done", algorithm << ": " << done.dump() << "\n"
                                                                    << t.cluster.coordinator_log());
    for (std::size_t p = 0; p < kNodes; ++p) {
      BOOST_TEST((read_file(t.cluster.root(kNames[p]) / "array.bin") == t.expected_part(p)),
                 algorithm << " on " << kNames[p]);
    }
    BOOST_TEST(t.staging_files() == 0u, algorithm);
  }
}

// Identity by file, not by name (issue 27): `./array.bin` written while `array.bin` is read
// was not staged, and the job ended `done` with 2560 pages wrong. Each spelling here is the
// file the job reads: by form, through a symlinked directory inside the data root (only
// the agent can tell), and a hard link (the staged copy replaces that name only).
BOOST_AUTO_TEST_CASE(an_in_place_redistribution_under_another_name_of_its_file_is_staged_and_right) {
  InPlace t;
  unsigned seed = 60;
  for (const std::string dst : {"./array.bin", "linked/array.bin", "hard.bin"}) {
    t.write_parts(seed += 10);
    t.link_names();
    const Json done = t.cluster.wait_job(t.submit(t.job("oggp", 50e6, dst)));
    BOOST_TEST_REQUIRE(done.value("state", "") == "done", dst << ": " << done.dump() << "\n"
                                                              << t.cluster.coordinator_log());
    for (std::size_t p = 0; p < kNodes; ++p) {
      BOOST_TEST((read_file(t.cluster.root(kNames[p]) / dst) == t.expected_part(p)), dst << " on " << kNames[p]);
    }
    BOOST_TEST(t.staging_files() == 0u, dst);
  }
}

// A restarted coordinator resumes the job on the identities its agents answered at submit,
// kept in the journal with the job (docs/journal.md, version 4). Before, it resumed on the
// names alone: the steps after the crash wrote straight into the file the job still read,
// and those before it stayed in a staging file that nothing completed.
BOOST_AUTO_TEST_CASE(an_aliased_in_place_job_resumed_by_a_restarted_coordinator_stays_staged_and_right) {
  InPlace t;
  unsigned seed = 90;
  for (const std::string dst : {"linked/array.bin", "hard.bin"}) {
    t.write_parts(seed += 10);
    t.link_names();
    const std::string id = t.submit(t.job("oggp", 300e3, dst));  // seconds per step
    for (int i = 0; i < 2000 && t.cluster.get("/v1/jobs/" + id).second.value("bytes_done", 0) == 0; ++i) {
      std::this_thread::sleep_for(10ms);
    }
    const Json mid = t.cluster.get("/v1/jobs/" + id).second;
    BOOST_TEST_REQUIRE(mid.value("state", "") == "running", dst << ": not mid-job: " << mid.dump());
    t.cluster.crash_and_restart_coordinator();
    const Json done = t.cluster.wait_job(id);
    BOOST_TEST_REQUIRE(done.value("state", "") == "done", dst << ": " << done.dump() << "\n"
                                                              << t.cluster.coordinator_log());
    BOOST_TEST(t.cluster.coordinator_log().find("job " + id + ": resuming at step") != std::string::npos,
               t.cluster.coordinator_log());
    for (std::size_t p = 0; p < kNodes; ++p) {
      BOOST_TEST((read_file(t.cluster.root(kNames[p]) / dst) == t.expected_part(p)), dst << " on " << kNames[p]);
    }
    BOOST_TEST(t.staging_files() == 0u, dst);
  }
}

// The probe's copy within one file: f.bin[0, 8M) to ./f.bin at 4M on one node, with oggp,
// ended `done` with 4 of its 8 MiB wrong. Staged, the file ends as its first 4 MiB and then
// all 8 of its old ones.
BOOST_AUTO_TEST_CASE(a_copy_within_one_file_under_two_names_is_staged_and_right) {
  Cluster cluster;
  cluster.start_agent("n0");
  BOOST_REQUIRE_MESSAGE(cluster.wait_alive(1), cluster.coordinator_log());
  constexpr std::size_t kMiB = 1 << 20;
  const std::string old = write_random_file(cluster.root("n0") / "f.bin", 8 * kMiB, 77);
  const Json job{
      {"senders", {"n0"}},
      {"receivers", {"n0"}},
      {"algorithm", "oggp"},
      {"platform",
       {{"sender_rate", 100e6}, {"receiver_rate", 100e6}, {"backbone_rate", 200e6}, {"step_startup", 0.001}}},
      {"transfers",
       {{{"src_node", "n0"},
         {"src_file", "f.bin"},
         {"src_offset", 0},
         {"length", 8 * kMiB},
         {"dst_node", "n0"},
         {"dst_file", "./f.bin"},
         {"dst_offset", 4 * kMiB}}}}};
  const auto [status, answer] = cluster.post("/v1/jobs", job.dump());
  BOOST_REQUIRE_MESSAGE(status == 201, "submit answered " << status << ": " << answer.dump());
  const Json done = cluster.wait_job(answer.at("id").get<std::string>());
  BOOST_TEST_REQUIRE(done.value("state", "") == "done", done.dump() << "\n" << cluster.coordinator_log());
  BOOST_TEST((read_file(cluster.root("n0") / "f.bin") == old.substr(0, 4 * kMiB) + old));
}

BOOST_AUTO_TEST_CASE(a_cancelled_in_place_job_leaves_the_files_as_they_were_and_no_staging_behind) {
  InPlace t;
  t.write_parts(5);
  const std::string id = t.submit(t.job("oggp", 1e6));  // seconds per step
  for (int i = 0; i < 1000 && t.cluster.get("/v1/jobs/" + id).second.value("bytes_done", 0) == 0; ++i) {
    std::this_thread::sleep_for(10ms);
  }
  BOOST_TEST(t.cluster.post("/v1/jobs/" + id + "/cancel", "").first == 200);
  BOOST_TEST(t.cluster.wait_job(id).value("state", "") == "cancelled");
  for (int i = 0; i < 500 && t.staging_files() > 0; ++i) std::this_thread::sleep_for(10ms);
  BOOST_TEST(t.staging_files() == 0u);
  for (std::size_t p = 0; p < kNodes; ++p) {
    BOOST_TEST((read_file(t.cluster.root(kNames[p]) / "array.bin") == t.array.substr(p * kPart, kPart)), kNames[p]);
  }
}

BOOST_AUTO_TEST_SUITE_END()
