// Two agents over one data root (issue 27): n0 and n1 are two nodes whose agents serve
// the same directory, which the coordinator learns only from what they register and
// answer (storage ids, file identities); n2 has a root of its own. A job whose destination
// on one of them is a file the other reads is refused at submit naming both nodes and
// both names, or staged and right; a job without such an alias runs as on separate roots.
#include "tests/integration/cluster.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>

using baton::test::Cluster;
using baton::test::Json;
using baton::test::read_file;
using baton::test::write_random_file;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// n1's data root is n0's: its `data` directory is a symlink to n0's, so both agents open
// one directory (one device and inode, one storage id).
struct SharedRoot {
  Cluster cluster;
  std::string src;
  SharedRoot() {
    std::filesystem::create_directories(cluster.root("n0"));
    std::filesystem::create_directories(cluster.root("n1").parent_path());
    std::filesystem::create_directory_symlink(cluster.root("n0"), cluster.root("n1"));
    src = write_random_file(cluster.root("n0") / "src.bin", 4 * kMiB, 27);
    // Other names of src.bin that only an agent can tell: a hard link, and a symlinked
    // directory inside the root.
    std::filesystem::create_hard_link(cluster.root("n0") / "src.bin", cluster.root("n0") / "hard.bin");
    std::filesystem::create_directory_symlink(".", cluster.root("n0") / "linked");
    for (const char* node : {"n0", "n1", "n2"}) cluster.start_agent(node);
    BOOST_REQUIRE_MESSAGE(cluster.wait_alive(3), cluster.coordinator_log());
  }

  // n0 sends src.bin to n1 and n2, each writing it into `dst_file`.
  static Json multicast(const std::string& dst_file) {
    return {{"kind", "multicast"},
            {"nodes", {"n0", "n1", "n2"}},
            {"multicasts",
             {{{"source", "n0"}, {"file", "src.bin"}, {"destinations", {"n1", "n2"}}, {"dst_file", dst_file}}}}};
  }

  // Refused (400) with one line naming every word of `names`; no job created.
  void refused_naming(const Json& job, const std::vector<std::string>& names) {
    const auto [status, body] = cluster.post("/v1/jobs", job.dump());
    BOOST_TEST(status == 400, job.dump() << " answered " << status << ": " << body.dump());
    const std::string error = body.is_object() ? body.value("error", "") : "";
    BOOST_TEST(error.find('\n') == std::string::npos, error);
    for (const std::string& name : names) BOOST_TEST(error.find(name) != std::string::npos, name << " in: " << error);
  }

  Json run(const Json& job) {
    const auto [status, body] = cluster.post("/v1/jobs", job.dump());
    BOOST_REQUIRE_MESSAGE(status == 201, "submit answered " << status << ": " << body.dump() << "\n" << job.dump());
    return cluster.wait_job(body.at("id").get<std::string>());
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(shared_root)

// n1 would write the file n0 sends while n0 reads it, and n2 would receive whatever of it
// had been overwritten by then (the probe's "done, a third node's copy holds the wrong
// file's bytes").
BOOST_AUTO_TEST_CASE(a_multicast_into_the_file_another_node_sends_over_a_shared_root_is_refused_naming_both) {
  SharedRoot t;
  t.refused_naming(SharedRoot::multicast("src.bin"), {"n0", "n1", "src.bin", "share their data root"});
  t.refused_naming(SharedRoot::multicast("hard.bin"), {"n0", "n1", "hard.bin", "as src.bin"});
  t.refused_naming(SharedRoot::multicast("linked/src.bin"), {"n0", "n1", "linked/src.bin", "as src.bin"});
  Json buffered = SharedRoot::multicast("hard.bin");
  buffered["kind"] = "buffered-multicast";
  buffered["messages"] = buffered["multicasts"];
  buffered.erase("multicasts");
  buffered["buffers"] = 1;
  t.refused_naming(buffered, {"n0", "n1", "hard.bin", "as src.bin"});

  const auto [status, jobs] = t.cluster.get("/v1/jobs");
  BOOST_TEST(status == 200);
  BOOST_TEST(jobs.at("jobs").size() == 0u, jobs.dump());
  BOOST_TEST(read_file(t.cluster.root("n0") / "src.bin") == t.src);
  BOOST_TEST(!std::filesystem::exists(t.cluster.root("n2") / "hard.bin"));
}

// A copy from n0's src.bin into n1's hard.bin, 2 MiB further on: one file over the shared
// root, so n1's destination is staged; the hard link's name gets the new bytes, src.bin
// keeps its own.
BOOST_AUTO_TEST_CASE(a_redistribution_into_a_file_another_node_reads_over_a_shared_root_is_staged_and_right) {
  SharedRoot t;
  const Json job{
      {"senders", {"n0"}},
      {"receivers", {"n1"}},
      {"algorithm", "oggp"},
      {"platform",
       {{"sender_rate", 100e6}, {"receiver_rate", 100e6}, {"backbone_rate", 200e6}, {"step_startup", 0.001}}},
      {"transfers",
       {{{"src_node", "n0"},
         {"src_file", "src.bin"},
         {"src_offset", 0},
         {"length", 4 * kMiB},
         {"dst_node", "n1"},
         {"dst_file", "hard.bin"},
         {"dst_offset", 2 * kMiB}}}}};
  const Json done = t.run(job);
  BOOST_TEST_REQUIRE(done.value("state", "") == "done", done.dump() << "\n" << t.cluster.coordinator_log());
  BOOST_TEST((read_file(t.cluster.root("n1") / "hard.bin") == t.src.substr(0, 2 * kMiB) + t.src));
  BOOST_TEST(read_file(t.cluster.root("n0") / "src.bin") == t.src);
}

BOOST_AUTO_TEST_CASE(a_multicast_without_an_alias_over_a_shared_root_runs_done_and_right) {
  SharedRoot t;
  const Json done = t.run(SharedRoot::multicast("copy.bin"));
  BOOST_TEST_REQUIRE(done.value("state", "") == "done", done.dump() << "\n" << t.cluster.coordinator_log());
  BOOST_TEST(read_file(t.cluster.root("n1") / "copy.bin") == t.src);  // n0's root too
  BOOST_TEST(read_file(t.cluster.root("n2") / "copy.bin") == t.src);
  BOOST_TEST(read_file(t.cluster.root("n0") / "src.bin") == t.src);
}

BOOST_AUTO_TEST_SUITE_END()
