// Bad collective jobs are refused when they are submitted (docs/collectives.md, "Jobs"):
// one line naming what is wrong, no job created, nothing written on any node.
#include "tests/integration/collective_cluster.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>

using namespace baton::test;

namespace {

Json reduce_job() {
  return {{"kind", "reduce"},  {"nodes", {"n0", "n1", "n2"}},
          {"root", "n0"},      {"data", {{"file", "grad.bin"}, {"offset", 0}, {"count", 1000}, {"dtype", "f32"}}},
          {"op", "sum"},       {"result", {{"file", "sum.bin"}}},
          {"algorithm", "snf"}};
}

Json multicast_job() {
  return {{"kind", "multicast"},
          {"nodes", {"n0", "n1", "n2"}},
          {"multicasts",
           {{{"source", "n1"},
             {"file", "model.bin"},
             {"offset", 0},
             {"length", 5000},
             {"destinations", {"n0", "n2"}},
             {"dst_file", "copy.bin"}}}}};
}

// The refusal's error line, which must name every word in `names`.
void refused_naming(CollectiveCluster& c, const Json& job, const std::vector<std::string>& names) {
  const auto [status, body] = c.cluster.post("/v1/jobs", job.dump());
  BOOST_TEST(status == 400, job.dump() << " answered " << status << ": " << body.dump());
  const std::string error = body.is_object() ? body.value("error", "") : "";
  BOOST_TEST(error.find('\n') == std::string::npos, error);
  for (const std::string& name : names) BOOST_TEST(error.find(name) != std::string::npos, name << " in: " << error);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(collective_refusal)

BOOST_AUTO_TEST_CASE(bad_collective_jobs_are_refused_at_submit_naming_the_field) {
  CollectiveCluster c({10'000'000, 20'000'000, 40'000'000, 80'000'000});
  // 1000 f32 on n0 and n1; n2's file is 400 bytes short; n1's model.bin has 4096 bytes.
  for (const char* node : {"n0", "n1"}) write_random_file(c.cluster.root(node) / "grad.bin", 4000, 1);
  write_random_file(c.cluster.root("n2") / "grad.bin", 3600, 2);
  write_random_file(c.cluster.root("n1") / "model.bin", 4096, 3);

  Json ghost = reduce_job();
  ghost["nodes"][2] = "ghost";
  refused_naming(c, ghost, {"ghost"});

  Json twice = reduce_job();
  twice["nodes"] = {"n0", "n1", "n0"};
  refused_naming(c, twice, {"nodes[2]", "n0", "twice"});

  Json bitwise_float = reduce_job();
  bitwise_float["op"] = "bxor";
  refused_naming(c, bitwise_float, {"op", "bxor", "f32"});
  Json band_double = reduce_job();
  band_double["kind"] = "allreduce";
  band_double.erase("root");
  band_double["data"]["dtype"] = "f64";
  band_double["data"]["count"] = 100;
  band_double["op"] = "band";
  refused_naming(c, band_double, {"op", "band", "f64"});

  // n2 holds 900 elements: the coordinator asks each node before it accepts the job.
  refused_naming(c, reduce_job(), {"n2", "grad.bin"});
  Json shifted = reduce_job();
  shifted["nodes"] = {"n0", "n1"};
  shifted["data"]["offset"] = 8;  // 8 + 4000 bytes past a 4000-byte file
  refused_naming(c, shifted, {"grad.bin", "data"});
  Json missing = reduce_job();
  missing["data"]["file"] = "absent.bin";
  refused_naming(c, missing, {"absent.bin"});

  Json unknown_algorithm = reduce_job();
  unknown_algorithm["algorithm"] = "ring";  // an all-reduction's, not a reduction's
  refused_naming(c, unknown_algorithm, {"algorithm", "ring"});
  // dp's limit, on the agents' registered rates: senders of three rates (n1, n2, n3).
  Json three_rates = reduce_job();
  three_rates["nodes"] = {"n0", "n1", "n2", "n3"};
  three_rates["algorithm"] = "dp";
  refused_naming(c, three_rates, {"dp", "at most two rates", "these have 3", "snf"});
  Json unknown_multicast = multicast_job();
  unknown_multicast["algorithm"] = "fastest";
  refused_naming(c, unknown_multicast, {"algorithm", "fastest"});

  Json long_message = multicast_job();
  long_message["multicasts"][0]["length"] = 5000;  // model.bin has 4096 bytes
  refused_naming(c, long_message, {"multicasts[0]", "model.bin", "n1"});
  Json unknown_destination = multicast_job();
  unknown_destination["multicasts"][0]["destinations"][1] = "n7";
  refused_naming(c, unknown_destination, {"n7"});
  Json no_buffers = multicast_job();
  no_buffers["kind"] = "buffered-multicast";
  no_buffers["messages"] = no_buffers["multicasts"];
  no_buffers.erase("multicasts");
  refused_naming(c, no_buffers, {"buffers"});

  // No job was created, and nothing was written.
  const auto [status, jobs] = c.cluster.get("/v1/jobs");
  BOOST_TEST(status == 200);
  BOOST_TEST(jobs.at("jobs").size() == 0u, jobs.dump());
  for (const std::string& node : c.nodes) {
    BOOST_TEST(!std::filesystem::exists(c.cluster.root(node) / "sum.bin"), node);
    BOOST_TEST(!std::filesystem::exists(c.cluster.root(node) / "copy.bin"), node);
  }
}

// Identity by file, not by name (issue 27): a multicast into `./src.bin` on the node that
// sends `src.bin` ended `done`, a third node holding the wrong file's bytes. Whatever the
// spelling, a job that writes a file it also reads or writes is refused, naming both names.
BOOST_AUTO_TEST_CASE(a_collective_writing_a_file_it_reads_under_another_name_is_refused_naming_both) {
  CollectiveCluster c({10'000'000, 20'000'000, 40'000'000});
  write_random_file(c.cluster.root("n1") / "src.bin", 4096, 1);
  write_random_file(c.cluster.root("n0") / "other.bin", 4096, 2);
  std::filesystem::create_directory(c.cluster.root("n1") / "d");
  write_random_file(c.cluster.root("n1") / "d" / "in.bin", 4096, 3);
  std::filesystem::create_directory_symlink("d", c.cluster.root("n1") / "linked");
  for (const char* node : {"n0", "n1", "n2"}) write_random_file(c.cluster.root(node) / "grad.bin", 4000, 4);
  const std::string before = read_file(c.cluster.root("n1") / "src.bin");

  // n1 sends src.bin to n0 and n2; n0 sends other.bin to n1, into `dst_file`.
  const auto crossed = [](const std::string& kind, const std::string& source_file, const std::string& dst_file) {
    Json job{{"kind", kind},
             {"nodes", {"n0", "n1", "n2"}},
             {kind == "multicast" ? "multicasts" : "messages",
              {{{"source", "n1"}, {"file", source_file}, {"destinations", {"n0", "n2"}}, {"dst_file", "copy.bin"}},
               {{"source", "n0"}, {"file", "other.bin"}, {"destinations", {"n1"}}, {"dst_file", dst_file}}}}};
    if (kind == "buffered-multicast") job["buffers"] = 1;
    return job;
  };
  for (const std::string kind : {"multicast", "buffered-multicast"}) {
    refused_naming(c, crossed(kind, "src.bin", "./src.bin"), {"n1", "./src.bin", "src.bin that it reads"});
    refused_naming(c, crossed(kind, "src.bin", "src.bin"), {"n1", "src.bin"});  // as before: the same name
    // A symlinked directory: only the agent can tell.
    refused_naming(c, crossed(kind, "d/in.bin", "linked/in.bin"), {"n1", "linked/in.bin", "d/in.bin"});
  }
  // A reduce's result under another name of its data file.
  Json reduce = reduce_job();
  reduce["result"]["file"] = "./grad.bin";
  refused_naming(c, reduce, {"n0", "./grad.bin", "grad.bin"});
  // An all-reduce in place, which no agent would run: refused at submit, saying so.
  Json allreduce = reduce_job();
  allreduce["kind"] = "allreduce";
  allreduce.erase("root");
  allreduce["algorithm"] = "ring";
  allreduce["data"]["count"] = 900;
  allreduce["result"]["file"] = "grad.bin";
  refused_naming(c, allreduce, {"result.file", "grad.bin", "in place"});

  const auto [status, jobs] = c.cluster.get("/v1/jobs");
  BOOST_TEST(jobs.at("jobs").size() == 0u, jobs.dump());
  BOOST_TEST(read_file(c.cluster.root("n1") / "src.bin") == before);
  for (const char* node : {"n0", "n2"}) BOOST_TEST(!std::filesystem::exists(c.cluster.root(node) / "copy.bin"), node);
}

BOOST_AUTO_TEST_SUITE_END()
