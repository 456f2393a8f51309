// In-place jobs: which destinations are staged, and what the agents' plans say of them
// (docs/runtime.md, "In-place jobs").
#include "coordinator/jobs/in_place_staging.h"
#include "error/error.h"

#include <boost/test/unit_test.hpp>

namespace bj = baton::jobs;
namespace bp = baton::protocol;

namespace {

bj::TransferSpec transfer(const std::string& src, const std::string& src_file, const std::string& dst,
                          const std::string& dst_file) {
  return {.src_node = src,
          .src_file = src_file,
          .src_offset = 0,
          .length = 10,
          .dst_node = dst,
          .dst_file = dst_file,
          .dst_offset = 0};
}

// Staged knowing only the nodes' storage ids, as when no agent said which file a name is.
std::set<bj::NodeFile> staged(const std::vector<bj::TransferSpec>& transfers,
                              const std::map<std::string, std::string>& storages) {
  return bj::staged_destinations(transfers, bj::FileIdentities({}, storages));
}

std::string error_of(const std::vector<bj::TransferSpec>& transfers,
                     const std::map<std::string, std::string>& storages) {
  try {
    staged(transfers, storages);
  } catch (const baton::error::InvalidInput& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(staging)

BOOST_AUTO_TEST_CASE(a_file_the_job_reads_and_writes_on_one_node_is_staged) {
  // n0 and n1 swap their halves of array.bin: each reads and writes it.
  const std::vector<bj::TransferSpec> job{transfer("n0", "array.bin", "n1", "array.bin"),
                                          transfer("n1", "array.bin", "n0", "array.bin")};
  const auto chosen = staged(job, {{"n0", "files:m:1:1"}, {"n1", "files:m:1:2"}});
  BOOST_TEST((chosen == std::set<bj::NodeFile>{{"n0", "array.bin"}, {"n1", "array.bin"}}));
}

BOOST_AUTO_TEST_CASE(a_file_read_on_another_storage_is_not_staged) {
  const std::vector<bj::TransferSpec> job{transfer("a", "x.bin", "b", "x.bin")};
  BOOST_TEST(staged(job, {{"a", "files:m:1:1"}, {"b", "files:m:1:2"}}).empty());
  // Another file on the same storage is not the same file either.
  BOOST_TEST(staged({transfer("a", "x.bin", "b", "y.bin")}, {{"a", "files:m:1:1"}, {"b", "files:m:1:1"}}).empty());
}

BOOST_AUTO_TEST_CASE(two_nodes_sharing_a_data_root_read_and_write_one_file_so_it_is_staged) {
  // The review's "copy within one file": a and b are two agents over one data root.
  const std::vector<bj::TransferSpec> job{transfer("a", "x.bin", "b", "x.bin")};
  const auto chosen = staged(job, {{"a", "files:m:7:9"}, {"b", "files:m:7:9"}});
  BOOST_TEST((chosen == std::set<bj::NodeFile>{{"b", "x.bin"}}));
}

BOOST_AUTO_TEST_CASE(what_cannot_be_staged_is_refused_with_the_reason) {
  const std::string memory = error_of({transfer("a", "r", "b", "out"), transfer("b", "out", "a", "r")},
                                      {{"a", "memory:a:1"}, {"b", "files:m:1:2"}});
  BOOST_TEST(memory.find("node a reads and writes its memory region 'r'") != std::string::npos, memory);
  const std::string two_writers = error_of({transfer("c", "x.bin", "a", "x.bin"), transfer("c", "y.bin", "b", "x.bin")},
                                           {{"a", "files:m:7:9"}, {"b", "files:m:7:9"}, {"c", "files:m:7:9"}});
  BOOST_TEST(two_writers.find("nodes a and b share a data root and both write x.bin") != std::string::npos,
             two_writers);
}

// Identity by file, not by name (issue 27): the probe's `./array.bin` written while
// `array.bin` is read was not staged and ended `done` with 2560 pages wrong.
BOOST_AUTO_TEST_CASE(a_file_read_and_written_under_two_spellings_is_staged) {
  const std::map<std::string, std::string> storages{{"n0", "files:m:1:1"}, {"n1", "files:m:1:2"}};
  const std::vector<bj::TransferSpec> job{transfer("n0", "array.bin", "n1", "./array.bin"),
                                          transfer("n1", "array.bin", "n0", "./array.bin")};
  BOOST_TEST((staged(job, storages) == std::set<bj::NodeFile>{{"n0", "./array.bin"}, {"n1", "./array.bin"}}));
  // f.bin[0, 8M) → ./f.bin at 4M on one node.
  BOOST_TEST(staged({transfer("n0", "f.bin", "n0", ".//f.bin")}, storages).size() == 1u);
}

BOOST_AUTO_TEST_CASE(names_the_agents_resolve_to_one_file_are_one_file) {
  // What the names cannot tell: a symlinked directory, a hard link, another agent's root
  // holding this one's. The agents' identities say it.
  const std::map<std::string, std::string> storages{{"a", "files:m:1:1"}, {"b", "files:m:1:2"}};
  const bj::LearntIdentities learnt{{{"a", "d/x.bin"}, "files:m:5:10"},      {{"a", "linked/x.bin"}, "files:m:5:10"},
                                    {{"b", "shared/x.bin"}, "files:m:5:10"}, {{"a", "hard.bin"}, "files:m:5:11"},
                                    {{"a", "y.bin"}, "files:m:5:11"},        {{"a", "other.bin"}, "files:m:5:12"}};
  const bj::FileIdentities files(learnt, storages);
  BOOST_TEST((bj::staged_destinations({transfer("a", "d/x.bin", "a", "linked/x.bin")}, files) ==
              std::set<bj::NodeFile>{{"a", "linked/x.bin"}}));
  BOOST_TEST((bj::staged_destinations({transfer("a", "hard.bin", "a", "y.bin")}, files) ==
              std::set<bj::NodeFile>{{"a", "y.bin"}}));
  BOOST_TEST((bj::staged_destinations({transfer("a", "d/x.bin", "b", "shared/x.bin")}, files) ==
              std::set<bj::NodeFile>{{"b", "shared/x.bin"}}));
  BOOST_TEST(bj::staged_destinations({transfer("a", "d/x.bin", "a", "other.bin")}, files).empty());
  // Without the agents' word, the same names are different files.
  BOOST_TEST(staged({transfer("a", "d/x.bin", "a", "linked/x.bin")}, storages).empty());
}

BOOST_AUTO_TEST_CASE(one_staged_file_written_under_two_names_or_overlapping_writes_are_refused_naming_both) {
  const std::map<std::string, std::string> storages{{"a", "files:m:1:1"}, {"b", "files:m:1:2"}};
  const auto refused = [&](const std::vector<bj::TransferSpec>& job) {
    try {
      staged(job, storages);
    } catch (const baton::error::InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  bj::TransferSpec upper = transfer("b", "x.bin", "a", "./x.bin");
  upper.dst_offset = 10;
  const std::string two_names =
      refused({transfer("b", "x.bin", "a", "x.bin"), upper, transfer("a", "x.bin", "b", "y")});
  BOOST_TEST(two_names.find("node a's x.bin and ./x.bin are one file, which the job also reads") != std::string::npos,
             two_names);
  bj::TransferSpec overlapping = transfer("b", "z.bin", "a", "./out.bin");
  overlapping.dst_offset = 5;
  const std::string overlap = refused({transfer("b", "y.bin", "a", "out.bin"), overlapping});
  BOOST_TEST(overlap.find("transfers[1]: writes over transfers[0]: node a's out.bin and ./out.bin are one file") !=
                 std::string::npos,
             overlap);
  // Side by side under two names is fine: one file, each byte written once, nothing read.
  bj::TransferSpec beside = transfer("b", "z.bin", "a", "./out.bin");
  beside.dst_offset = 10;
  BOOST_TEST(refused({transfer("b", "y.bin", "a", "out.bin"), beside}).empty());
}

BOOST_AUTO_TEST_CASE(a_node_without_a_known_storage_shares_it_with_no_other) {
  const std::vector<bj::TransferSpec> job{transfer("a", "x.bin", "b", "x.bin")};
  BOOST_TEST(staged(job, {}).empty());
  BOOST_TEST(staged({transfer("a", "x.bin", "a", "x.bin")}, {}).size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_staging_file_sits_beside_its_destination) {
  BOOST_TEST(bj::staging_name("./array.bin", "1-t") == "./.array.bin.baton-1-t");
  BOOST_TEST(bj::staging_name("array.bin", "7-20261125T120000Z") == ".array.bin.baton-7-20261125T120000Z");
  BOOST_TEST(bj::staging_name("out/part/a.bin", "3-x") == "out/part/.a.bin.baton-3-x");
}

BOOST_AUTO_TEST_CASE(only_the_chunks_received_into_a_staged_file_are_redirected) {
  bp::Plan plan;
  bp::Step& step = *plan.add_steps();
  bp::Flow& out = *step.add_flows();
  out.set_send(true);
  out.add_chunks()->set_dst_file("array.bin");  // the peer's file: not this node's to stage
  bp::Flow& in = *step.add_flows();
  in.set_send(false);
  in.add_chunks()->set_dst_file("array.bin");
  in.add_chunks()->set_dst_file("other.bin");
  std::map<std::string, bp::Plan> plans{{"n0", plan}, {"n1", plan}};
  bj::stage_plans(plans, {{"n0", "array.bin"}}, "5-t");
  const bp::Plan& n0 = plans.at("n0");
  BOOST_TEST_REQUIRE(n0.staged_size() == 1);
  BOOST_TEST(n0.staged(0).file() == "array.bin");
  BOOST_TEST(n0.staged(0).staging() == ".array.bin.baton-5-t");
  BOOST_TEST(n0.steps(0).flows(0).chunks(0).dst_file() == "array.bin");
  BOOST_TEST(n0.steps(0).flows(1).chunks(0).dst_file() == ".array.bin.baton-5-t");
  BOOST_TEST(n0.steps(0).flows(1).chunks(1).dst_file() == "other.bin");
  BOOST_TEST(plans.at("n1").staged_size() == 0);
  BOOST_TEST(plans.at("n1").steps(0).flows(1).chunks(0).dst_file() == "array.bin");
}

BOOST_AUTO_TEST_SUITE_END()
