// Asking nodes about the files a collective reads (coordinator/daemon/object_queries.h) and
// what the answers make of the job (collectives::resolve_ranges): the refusals a user sees at
// submit, each naming the node, the file and the sizes; silent nodes; answers that answer
// nothing asked.
#include "coordinator/daemon/object_queries.h"
#include "coordinator/daemon/job_spec.h"
#include "error/error.h"
#include "tests/daemon/fake_agents.h"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>

namespace bc = baton::coordinator;
namespace coll = baton::collectives;
namespace bp = baton::protocol;
using baton::test::FakeAgents;

namespace {

const std::string kMulticastJob = R"({"kind": "multicast", "nodes": ["n0", "n1", "n2"],
  "multicasts": [{"source": "n1", "file": "model.bin", "offset": 100, "destinations": ["n0", "n2"],
                  "dst_file": "model.bin"}]})";
const std::string kReduceJob = R"({"kind": "reduce", "nodes": ["n0", "n1", "n2"], "root": "n0",
  "data": {"file": "grad.bin", "offset": 8, "count": 1000, "dtype": "f64"}, "op": "sum", "result": {"file": "s"}})";

struct QueriesFixture {
  FakeAgents agents{{"n0", "n1", "n2"}};
  bc::ObjectQueries queries;
  std::optional<bc::ObjectAnswers> answers;

  std::uint64_t ask(const coll::CollectiveJob& job) {
    return queries.ask(agents, coll::objects_read(job), [this](bc::ObjectAnswers a) { answers = std::move(a); });
  }
  // The query the fake sent `node`, taken.
  bp::ObjectQuery sent_to(const std::string& node) {
    for (auto it = agents.sent.begin(); it != agents.sent.end(); ++it) {
      if (it->first == node && it->second.has_object_query()) {
        bp::ObjectQuery q = it->second.object_query();
        agents.sent.erase(it);
        return q;
      }
    }
    BOOST_FAIL("no query sent to " + node);
    return {};
  }
  void answer(const std::string& node, std::uint64_t query, const std::string& object, bool exists, std::uint64_t size,
              const std::string& error = "") {
    bp::ObjectAnswer a;
    a.set_query(query);
    bp::ObjectInfo& info = *a.add_objects();
    info.set_object(object);
    info.set_exists(exists);
    info.set_size(size);
    info.set_error(error);
    queries.on_answer(node, a);
  }
  // What submitting the job would answer, given the nodes' answers.
  std::string resolve(coll::CollectiveJob& job) {
    try {
      coll::resolve_ranges(job, [&](const std::string& node, const std::string& file) -> const coll::ObjectFacts* {
        const auto found = answers->facts.find({node, file});
        return found == answers->facts.end() ? nullptr : &found->second;
      });
    } catch (const baton::error::InvalidInput& e) {
      return e.what();
    }
    return "accepted";
  }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(object_queries, QueriesFixture)

BOOST_AUTO_TEST_CASE(a_message_without_a_length_runs_to_the_end_of_its_file) {
  coll::CollectiveJob job = bc::parse_job_spec(kMulticastJob).collective;
  const std::uint64_t id = ask(job);
  const bp::ObjectQuery q = sent_to("n1");  // only the source reads
  BOOST_TEST(q.query() == id);
  BOOST_TEST(q.objects_size() == 1);
  BOOST_TEST(q.objects(0) == "model.bin");
  BOOST_TEST(agents.sent.empty());
  BOOST_TEST(!answers.has_value());
  answer("n1", id, "model.bin", true, 1100);
  BOOST_REQUIRE(answers.has_value());
  BOOST_TEST(resolve(job) == "accepted");
  BOOST_TEST(job.messages[0].length.value() == 1000u);
}

BOOST_AUTO_TEST_CASE(ranges_past_the_end_missing_files_and_unreadable_ones_are_refused_naming_them) {
  coll::CollectiveJob job = bc::parse_job_spec(kMulticastJob).collective;
  answer("n1", ask(job), "model.bin", true, 100);
  BOOST_TEST(resolve(job) == "multicasts[0]: nothing to send: n1's model.bin holds 100 bytes, none after offset 100");
  job.messages[0].length = 50;
  answer("n1", ask(job), "model.bin", true, 120);
  BOOST_TEST(resolve(job) == "multicasts[0]: n1's model.bin: offset 100 + 50 bytes is past its end (120 bytes)");
  answer("n1", ask(job), "model.bin", false, 0);
  BOOST_TEST(resolve(job) == "multicasts[0].file: n1 has no model.bin");
  answer("n1", ask(job), "model.bin", false, 0, "not a regular file");
  BOOST_TEST(resolve(job) == "multicasts[0].file: n1 cannot read model.bin: not a regular file");

  coll::CollectiveJob reduce = bc::parse_job_spec(kReduceJob).collective;
  const std::uint64_t id = ask(reduce);
  answer("n0", id, "grad.bin", true, 8008);
  answer("n1", id, "grad.bin", true, 8008);
  answer("n2", id, "grad.bin", true, 8000);  // 8 bytes short
  BOOST_TEST(resolve(reduce) ==
             "data: n2's grad.bin: offset 8 + 8000 bytes is past its end (8000 bytes); count 1000 × 8 bytes does not "
             "fit");
}

BOOST_AUTO_TEST_CASE(silent_nodes_are_named_when_the_asker_gives_up) {
  coll::CollectiveJob reduce = bc::parse_job_spec(kReduceJob).collective;
  agents.set_alive("n2", false);  // no session: silent at once
  const std::uint64_t id = ask(reduce);
  answer("n0", id, "grad.bin", true, 8008);
  BOOST_TEST(!answers.has_value());
  queries.give_up(id);
  BOOST_REQUIRE(answers.has_value());
  BOOST_TEST(answers->silent == (std::vector<std::string>{"n2", "n1"}), boost::test_tools::per_element());
  queries.give_up(id);  // over: nothing happens
  answer("n1", id, "grad.bin", true, 8008);
}

BOOST_AUTO_TEST_CASE(answers_to_nothing_asked_are_ignored) {
  coll::CollectiveJob job = bc::parse_job_spec(kMulticastJob).collective;
  const std::uint64_t id = ask(job);
  answer("n0", id, "model.bin", true, 1 << 20);      // n0 was not asked
  answer("n1", id + 7, "model.bin", true, 1 << 20);  // no such query
  BOOST_TEST(!answers.has_value());
  answer("n1", id, "../../etc/passwd", true, 1 << 20);  // not an object it was asked about
  BOOST_REQUIRE(answers.has_value());                   // n1 answered (about nothing useful)
  BOOST_TEST(resolve(job) == "multicasts[0].file: n1 did not say whether it has model.bin");
}

BOOST_AUTO_TEST_SUITE_END()
