// Which file a job's (node, name) is, as the coordinator decides it (coordinator/jobs/
// file_identities.h), and the collectives refused for writing a file they read or write
// under another name or on another node (issue 27: a multicast into `./src.bin` on the
// node that sends `src.bin` ended `done` with a third node holding the wrong bytes).
#include "coordinator/jobs/file_identities.h"
#include "coordinator/collectives/collective_job.h"

#include <boost/test/unit_test.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

namespace bj = baton::jobs;
namespace coll = baton::collectives;

BOOST_AUTO_TEST_SUITE(file_identities)

BOOST_AUTO_TEST_CASE(names_are_compared_in_their_normal_form) {
  BOOST_TEST(bj::normal_name("./a//b/.") == "a/b");
  BOOST_TEST(bj::normal_name("x.bin") == "x.bin");
  BOOST_TEST(bj::normal_name(".") == ".");
  BOOST_TEST(bj::normal_name("a/../x") == "a/../x");  // ".." is not undone: a symlink may lead anywhere
}

BOOST_AUTO_TEST_CASE(keys_follow_the_agents_then_the_storage_and_the_name) {
  const bj::FileIdentities files({{{"a", "lnk/x"}, "files:m:1:9"}, {{"a", "d/x"}, "files:m:1:9"}},
                                 {{"a", "files:m:1:1"}, {"b", "files:m:1:1"}, {"c", "files:m:1:2"}});
  BOOST_TEST(files.key("a", "lnk/x") == files.key("a", "d/x"));
  BOOST_TEST(files.key("a", "./y") == files.key("b", "y"));  // one data root
  BOOST_TEST(files.key("a", "y") != files.key("c", "y"));
  BOOST_TEST(files.key("a", "scratch:q") != files.key("b", "scratch:q"));  // each job's node its own
  BOOST_TEST(files.key("d", "y") != files.key("e", "y"));                  // unknown storage: shared with nobody
  BOOST_TEST(files.storage("d") == "node:d");
  BOOST_TEST(!files.in_memory("a"));
  BOOST_TEST(bj::FileIdentities({}, {{"e", "memory:e:1"}}).in_memory("e"));
}

namespace {

// n1 sends src.bin to n2; n2 sends other.bin to `destinations` into `dst_file`.
coll::CollectiveJob multicast(const std::string& dst_file, const std::vector<std::string>& destinations) {
  coll::CollectiveJob job;
  job.kind = bj::JobKind::multicast;
  job.nodes = {"n1", "n2", "n3"};
  job.messages = {
      {.source = "n1", .file = "src.bin", .offset = 0, .length = 10, .destinations = {"n2"}, .dst_file = "copy.bin"},
      {.source = "n2",
       .file = "other.bin",
       .offset = 0,
       .length = 10,
       .destinations = destinations,
       .dst_file = dst_file}};
  return job;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_multicast_into_its_own_source_under_another_name_is_refused_naming_both) {
  const std::map<std::string, std::string> storages{{"n1", "s1"}, {"n2", "s2"}, {"n3", "s3"}};
  BOOST_TEST(!coll::aliased_files(multicast("out.bin", {"n1", "n3"}), bj::FileIdentities({}, storages)).has_value());
  const std::string dot =
      coll::aliased_files(multicast("./src.bin", {"n1", "n3"}), bj::FileIdentities({}, storages)).value_or("").reason;
  BOOST_TEST(dot == "node n1 would write ./src.bin, which is src.bin that it reads (one file under two names)");
  // A hard link only the agent sees.
  const bj::LearntIdentities learnt{{{"n1", "src.bin"}, "files:m:1:5"}, {{"n1", "link.bin"}, "files:m:1:5"}};
  const std::string hard =
      coll::aliased_files(multicast("link.bin", {"n1", "n3"}), bj::FileIdentities(learnt, storages))
          .value_or("")
          .reason;
  BOOST_TEST(hard.find("node n1 would write link.bin, which is src.bin that it reads") == 0u, hard);
}

BOOST_AUTO_TEST_CASE(two_nodes_sharing_a_root_writing_what_the_other_reads_are_refused_naming_both) {
  const std::map<std::string, std::string> shared{{"n1", "files:m:7:7"}, {"n2", "s2"}, {"n3", "files:m:7:7"}};
  const std::string same =
      coll::aliased_files(multicast("src.bin", {"n3"}), bj::FileIdentities({}, shared)).value_or("").reason;
  BOOST_TEST(same == "nodes n3 and n1 share their data root (files:m:7:7): n3 would write src.bin, which n1 reads");
  const std::string spelled =
      coll::aliased_files(multicast("./src.bin", {"n3"}), bj::FileIdentities({}, shared)).value_or("").reason;
  BOOST_TEST(spelled.find("n3 would write ./src.bin, which n1 reads as src.bin") != std::string::npos, spelled);
  // Two roots, one nested in the other: only the agents' identities tell.
  const std::map<std::string, std::string> apart{{"n1", "s1"}, {"n2", "s2"}, {"n3", "s3"}};
  const bj::LearntIdentities learnt{{{"n1", "src.bin"}, "files:m:1:5"}, {{"n3", "in/src.bin"}, "files:m:1:5"}};
  const std::string nested =
      coll::aliased_files(multicast("in/src.bin", {"n3"}), bj::FileIdentities(learnt, apart)).value_or("").reason;
  BOOST_TEST(nested.find("nodes n3 and n1 share files: n3 would write in/src.bin, which n1 reads as src.bin") == 0u,
             nested);
}

BOOST_AUTO_TEST_CASE(a_reduce_in_place_under_one_name_is_fine_under_two_refused) {
  coll::CollectiveJob job;
  job.kind = bj::JobKind::reduce;
  job.nodes = {"n1", "n2"};
  job.root = "n1";
  job.data.file = "a.bin";
  job.result_file = "a.bin";
  const bj::FileIdentities files({}, {{"n1", "s1"}, {"n2", "s2"}});
  BOOST_TEST(!coll::aliased_files(job, files).has_value());
  job.result_file = "./a.bin";
  BOOST_TEST(coll::aliased_files(job, files).value_or("").reason ==
             "node n1 would write ./a.bin, which is a.bin that it reads (one file under two names)");
}

namespace {

// Every write against every use, in order: the definition first_alias must agree with (it
// groups uses by key to be linear in the job's size).
std::string pairwise_alias(const coll::CollectiveJob& job, const bj::FileIdentities& files) {
  const std::vector<coll::FileUse> uses = coll::file_uses(job);
  for (const coll::FileUse& a : uses) {
    if (!a.writes) continue;
    for (const coll::FileUse& b : uses) {
      if ((b.node == a.node && b.file == a.file) || files.key(b.node, b.file) != files.key(a.node, a.file)) continue;
      return a.node + ":" + a.file + " " + b.node + ":" + b.file + (b.writes ? " writes" : " reads");
    }
  }
  return "";
}

std::string shown(const std::optional<std::pair<coll::FileUse, coll::FileUse>>& alias) {
  if (!alias) return "";
  const auto& [a, b] = *alias;
  return a.node + ":" + a.file + " " + b.node + ":" + b.file + (b.writes ? " writes" : " reads");
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_conflict_named_is_the_first_of_every_write_against_every_use) {
  std::mt19937 random(42);
  const std::vector<std::string> names{"a.bin", "./a.bin", "b.bin", "c.bin", "d/../a.bin"};
  int conflicts = 0;
  for (int trial = 0; trial < 400; ++trial) {
    coll::CollectiveJob job;
    job.kind = bj::JobKind::multicast;
    std::map<std::string, std::string> storages;
    for (int n = 0; n < 6; ++n) {
      job.nodes.push_back("n" + std::to_string(n));
      storages[job.nodes.back()] = "s" + std::to_string(random() % 4);  // some nodes share a root
    }
    for (int m = 0; m < 1 + static_cast<int>(random() % 4); ++m) {
      coll::Message message{.source = job.nodes[random() % 6],
                            .file = names[random() % names.size()],
                            .offset = 0,
                            .length = 1,
                            .destinations = {},
                            .dst_file = names[random() % names.size()]};
      for (int d = 0; d < 1 + static_cast<int>(random() % 3); ++d)
        message.destinations.push_back(job.nodes[random() % 6]);
      job.messages.push_back(message);
    }
    const bj::FileIdentities files({}, storages);
    const std::string expected = pairwise_alias(job, files);
    BOOST_TEST(shown(coll::first_alias(job, files)) == expected);
    BOOST_TEST(coll::aliased_files(job, files).has_value() == !expected.empty());
    conflicts += expected.empty() ? 0 : 1;
  }
  BOOST_TEST(conflicts > 50);  // the random jobs exercise conflicts, not only clean jobs
}

BOOST_AUTO_TEST_SUITE_END()
