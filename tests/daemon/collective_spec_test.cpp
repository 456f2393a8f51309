// Collective job submissions (docs/collectives.md, "Jobs"): the issue's four examples are
// accepted as written, and every bad field of every kind is refused with one line naming it.
#include "coordinator/daemon/job_spec.h"
#include "coordinator/json/input.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>
#include <vector>

namespace bc = baton::coordinator;
namespace bj = baton::jobs;
namespace coll = baton::collectives;
namespace bp = baton::protocol;
using baton::json::Json;

namespace {

// The examples of docs/collectives.md (and issue 14), word for word.
const std::string kReduce = R"({"kind": "reduce", "nodes": ["n0", "n1", "n2", "n3"], "root": "n0",
 "data": {"file": "grad.bin", "offset": 0, "count": 16777216, "dtype": "f32"},
 "op": "sum", "result": {"file": "sum.bin"}, "algorithm": "snf"})";
const std::string kAllreduce = R"({"kind": "allreduce", "nodes": ["n0", "n1", "n2"],
 "data": {"file": "grad.bin", "offset": 0, "count": 1048576, "dtype": "i64"},
 "op": "max", "result": {"file": "max.bin"}, "algorithm": "snf-fnf"})";
const std::string kMulticast = R"({"kind": "multicast", "nodes": ["n0", "n1", "n2", "n3"], "algorithm": "wrp",
 "multicasts": [{"source": "n2", "file": "model.bin", "offset": 0, "length": 8388608,
                 "destinations": ["n0", "n1", "n3"], "dst_file": "model.bin"}]})";
const std::string kBuffered = R"({"kind": "buffered-multicast", "nodes": ["n0", "n1", "n2", "n3"], "buffers": 2,
 "algorithm": "ordered-coloring",
 "messages": [{"source": "n0", "file": "m0.bin", "destinations": ["n1", "n2"], "dst_file": "m0.bin"}]})";

std::string collective_refusal(const Json& job) {
  try {
    bc::parse_job_spec(job.dump());
  } catch (const baton::json::InputError& e) {
    return e.what();
  }
  return "accepted";
}

// `example` with the member at `pointer` set to `value` (or removed when value is null).
Json with(const std::string& example, const std::string& pointer, const Json& value) {
  Json job = Json::parse(example);
  const Json::json_pointer at(pointer);
  if (value.is_null()) job[at.parent_pointer()].erase(at.back());
  else job[at] = value;
  return job;
}

// The names of `kind`'s algorithms, as a job's JSON gives them.
std::vector<std::string> names(bj::JobKind kind) {
  std::vector<std::string> out;
  for (const coll::Algorithm a : coll::algorithms(kind)) out.emplace_back(coll::name(a));
  return out;
}

struct Case {
  std::string pointer;
  Json value;
  std::string error;
};

void refuses(const std::string& example, const std::vector<Case>& cases) {
  for (const Case& c : cases) BOOST_TEST(collective_refusal(with(example, c.pointer, c.value)) == c.error, c.pointer);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(collective_spec)

BOOST_AUTO_TEST_CASE(the_four_examples_are_accepted_as_written) {
  const bc::JobSpec reduce = bc::parse_job_spec(kReduce);
  BOOST_TEST((reduce.kind == bj::JobKind::reduce));
  BOOST_TEST(reduce.collective.root == "n0");
  BOOST_TEST(reduce.collective.data.bytes() == 16777216u * 4);
  BOOST_TEST((reduce.collective.op == bp::SUM));
  BOOST_TEST(reduce.collective.result_file == "sum.bin");
  BOOST_TEST(reduce.nodes().size() == 4u);

  const bc::JobSpec allreduce = bc::parse_job_spec(kAllreduce);
  BOOST_TEST((allreduce.collective.data.dtype == bp::I64));
  BOOST_TEST(allreduce.algorithm_name() == "snf-fnf");

  const bc::JobSpec multicast = bc::parse_job_spec(kMulticast);
  BOOST_REQUIRE(multicast.collective.messages.size() == 1u);
  BOOST_TEST(multicast.collective.messages[0].length.value() == 8388608u);
  BOOST_TEST(multicast.collective.messages[0].destinations.size() == 3u);

  const bc::JobSpec buffered = bc::parse_job_spec(kBuffered);
  BOOST_TEST(buffered.collective.buffers == 2u);
  BOOST_TEST(!buffered.collective.messages[0].length.has_value());  // the whole file, asked at submit
  BOOST_TEST(buffered.collective.messages[0].offset == 0u);
}

BOOST_AUTO_TEST_CASE(defaults_are_the_documented_ones) {
  // Every collective's default is auto: the fastest by the plan's prediction.
  for (const std::string& example : {kReduce, kAllreduce, kMulticast, kBuffered})
    BOOST_TEST(bc::parse_job_spec(with(example, "/algorithm", nullptr).dump()).algorithm_name() == "auto");
  BOOST_TEST(bc::parse_job_spec(with(kReduce, "/data/offset", nullptr).dump()).collective.data.offset == 0u);
  // No kind: today's redistribution.
  const std::string redistribution = R"({"senders": ["a"], "receivers": ["b"], "platform": {"sender_rate": 1,
    "receiver_rate": 1, "backbone_rate": 1, "step_startup": 0}, "transfers": [{"src_node": "a", "src_file": "x",
    "src_offset": 0, "length": 1, "dst_node": "b", "dst_file": "y", "dst_offset": 0}]})";
  BOOST_TEST((bc::parse_job_spec(redistribution).kind == bj::JobKind::redistribution));
  BOOST_TEST(
      (bc::parse_job_spec(with(redistribution, "/kind", "redistribution").dump()).kind == bj::JobKind::redistribution));
}

BOOST_AUTO_TEST_CASE(every_algorithm_of_each_kind_is_accepted) {
  for (const auto& [example, kind] :
       {std::pair{kReduce, bj::JobKind::reduce}, std::pair{kAllreduce, bj::JobKind::allreduce},
        std::pair{kMulticast, bj::JobKind::multicast}, std::pair{kBuffered, bj::JobKind::buffered_multicast}}) {
    for (const std::string& algorithm : names(kind)) {
      BOOST_TEST(collective_refusal(with(example, "/algorithm", algorithm)) == "accepted", algorithm);
      // Parsed once into its enum, named back the same (the journal and the reports).
      BOOST_TEST(bc::parse_job_spec(with(example, "/algorithm", algorithm).dump()).algorithm_name() == algorithm);
    }
  }
  BOOST_TEST(names(bj::JobKind::reduce) ==
                 (std::vector<std::string>{"auto", "snf", "dp", "bnb", "binomial", "flat", "pipelined-tree"}),
             boost::test_tools::per_element());
  BOOST_TEST(names(bj::JobKind::allreduce) ==
                 (std::vector<std::string>{"auto", "snf-fnf", "binomial", "ring", "pipelined-tree", "rate-rsag"}),
             boost::test_tools::per_element());
  BOOST_TEST(names(bj::JobKind::multicast).front() == "auto");
  BOOST_TEST(names(bj::JobKind::multicast)[1] == "wrp");
  // auto, 11 of the paper, flat, binomial, pipelined-tree
  BOOST_TEST(names(bj::JobKind::multicast).size() == 15u);
  BOOST_TEST(names(bj::JobKind::buffered_multicast).front() == "auto");
}

BOOST_AUTO_TEST_CASE(bad_kinds_and_algorithms_are_named) {
  BOOST_TEST(collective_refusal(with(kReduce, "/kind", "gather")) ==
             "kind: unknown kind \"gather\" (redistribution, reduce, allreduce, multicast, buffered-multicast)");
  BOOST_TEST(collective_refusal(with(kReduce, "/kind", 3)) == "kind: must be a non-empty string");
  BOOST_TEST(collective_refusal(with(kReduce, "/algorithm", "ring")) ==
             "algorithm: unknown algorithm \"ring\" for a reduce (auto, snf, dp, bnb, binomial, flat, pipelined-tree)");
  BOOST_TEST(collective_refusal(with(kAllreduce, "/algorithm", "snf")) ==
             "algorithm: unknown algorithm \"snf\" for an allreduce (auto, snf-fnf, binomial, ring, pipelined-tree, "
             "rate-rsag)");
  BOOST_TEST(collective_refusal(with(kMulticast, "/algorithm", "coloring"))
                 .starts_with("algorithm: unknown algorithm \"coloring\" for a multicast (auto, wrp, fef, ecf,"));
  BOOST_TEST(collective_refusal(with(kBuffered, "/algorithm", "wrp")) ==
             "algorithm: unknown algorithm \"wrp\" for a buffered-multicast (auto, ordered-coloring, coloring)");
}

BOOST_AUTO_TEST_CASE(every_bad_field_of_a_reduce_is_named) {
  refuses(kReduce, {{"/nodes", nullptr, "nodes: missing"},
                    {"/nodes", Json::array({"n0"}), "nodes: must hold at least 2 elements"},
                    {"/nodes", Json::array({"n0", "n1", "n0"}), "nodes[2]: n0 is listed twice (nodes[0])"},
                    {"/nodes/1", "", "nodes[1]: must be a non-empty node id"},
                    {"/root", nullptr, "root: missing"},
                    {"/root", "n9", "root: n9 is not one of nodes"},
                    {"/data", nullptr, "data: missing"},
                    {"/data", "grad.bin", "data: must be an object, not string"},
                    {"/data/file", nullptr, "data.file: missing"},
                    {"/data/file", "", "data.file: must be a non-empty string"},
                    {"/data/offset", -1, "data.offset: must be >= 0"},
                    {"/data/count", 0, "data.count: must be >= 1"},
                    {"/data/count", 2.5, "data.count: must be a whole number"},
                    {"/data/count", 4611686018427387904LL,
                     "data.count: 4611686018427387904 elements of f32 at offset 0 run past 2^63 bytes"},
                    {"/data/dtype", "f16", "data.dtype: unknown dtype \"f16\" (f32, f64, i32, i64, u32, u64)"},
                    {"/data/stride", 2, "data.stride: unknown field"},
                    {"/op", nullptr, "op: missing"},
                    {"/op", "avg", "op: unknown op \"avg\" (sum, prod, min, max, band, bor, bxor)"},
                    {"/op", "band", "op: band needs an integer dtype, not f32"},
                    {"/op", "bxor", "op: bxor needs an integer dtype, not f32"},
                    {"/result", nullptr, "result: missing"},
                    {"/result/file", nullptr, "result.file: missing"},
                    {"/result/offset", 0, "result.offset: unknown field"},
                    {"/buffers", 2, "buffers: unknown field"}});
  // The same file in place is fine at offset 0, refused elsewhere.
  BOOST_TEST(collective_refusal(with(kReduce, "/result/file", "grad.bin")) == "accepted");
  Json shifted = with(kReduce, "/result/file", "grad.bin");
  shifted["data"]["offset"] = 64;
  BOOST_TEST(collective_refusal(shifted) ==
             "result.file: grad.bin is also data.file: an in-place result needs data.offset 0 (the result is written "
             "at offset 0)");
  // Integer ops on integers are fine.
  Json integers = with(kReduce, "/op", "bor");
  integers["data"]["dtype"] = "u32";
  BOOST_TEST(collective_refusal(integers) == "accepted");
}

BOOST_AUTO_TEST_CASE(every_bad_field_of_an_allreduce_is_named) {
  refuses(kAllreduce, {{"/root", "n0", "root: unknown field"},
                       {"/nodes/2", "n1", "nodes[2]: n1 is listed twice (nodes[1])"},
                       {"/data/dtype", 8, "data.dtype: must be a non-empty string"},
                       {"/op", "prod", "accepted"},
                       {"/algorithm", "", "algorithm: must be a non-empty string"}});
  // In place (issue 27: accepted, then refused by every agent): refused here, however the
  // result's name is spelled.
  for (const char* spelling : {"grad.bin", "./grad.bin"}) {
    BOOST_TEST(collective_refusal(with(kAllreduce, "/result/file", spelling)) ==
               "result.file: " + std::string(spelling) +
                   " is data.file grad.bin: an all-reduce does not run in place (each node still reads its data "
                   "while the result arrives); name another result file");
  }
  Json ring = with(kAllreduce, "/algorithm", "ring");
  ring["data"]["count"] = 2;
  BOOST_TEST(collective_refusal(ring) ==
             "data.count: ring cuts the array into one segment per node: 3 nodes need at least 3 elements, not 2");
}

BOOST_AUTO_TEST_CASE(every_bad_field_of_a_multicast_is_named) {
  refuses(kMulticast,
          {{"/multicasts", nullptr, "multicasts: missing"},
           {"/multicasts", Json::array(), "multicasts: must hold at least 1 element"},
           {"/messages", Json::array(), "messages: unknown field"},
           {"/buffers", 1, "buffers: unknown field"},
           {"/multicasts/0/source", nullptr, "multicasts[0].source: missing"},
           {"/multicasts/0/source", "n7", "multicasts[0].source: n7 is not one of nodes"},
           {"/multicasts/0/file", nullptr, "multicasts[0].file: missing"},
           {"/multicasts/0/offset", -3, "multicasts[0].offset: must be >= 0"},
           {"/multicasts/0/length", 0, "multicasts[0].length: must be >= 1"},
           {"/multicasts/0/length", 9007199254740993LL, "multicasts[0].length: must be <= 9007199254740992"},
           {"/multicasts/0/destinations", Json::array(), "multicasts[0].destinations: must hold at least 1 element"},
           {"/multicasts/0/destinations/1", "n2", "multicasts[0].destinations[1]: n2 is the message's own source"},
           {"/multicasts/0/destinations/1", "n9", "multicasts[0].destinations[1]: n9 is not one of nodes"},
           {"/multicasts/0/destinations/2", "n0",
            "multicasts[0].destinations[2]: n0 is listed twice (multicasts[0].destinations[0])"},
           {"/multicasts/0/dst_file", nullptr, "multicasts[0].dst_file: missing"},
           {"/multicasts/0/bytes", 5, "multicasts[0].bytes: unknown field"}});
  // Offset and length may be left out: the whole file.
  BOOST_TEST(collective_refusal(with(kMulticast, "/multicasts/0/length", nullptr)) == "accepted");
  // A second message into the same destination file, or into the file a node sends from.
  Json twice = Json::parse(kMulticast);
  twice["multicasts"].push_back(
      Json{{"source", "n3"}, {"file", "other.bin"}, {"destinations", {"n1"}}, {"dst_file", "model.bin"}});
  BOOST_TEST(collective_refusal(twice) == "multicasts[1].dst_file: n1 already receives multicasts[0] into model.bin");
  Json overwrite = Json::parse(kMulticast);
  overwrite["multicasts"].push_back(
      Json{{"source", "n0"}, {"file", "a.bin"}, {"destinations", {"n2"}}, {"dst_file", "model.bin"}});
  BOOST_TEST(collective_refusal(overwrite) ==
             "multicasts[1].dst_file: n2 reads model.bin as the source of multicasts[0]");
}

BOOST_AUTO_TEST_CASE(every_bad_field_of_a_buffered_multicast_is_named) {
  refuses(kBuffered,
          {{"/buffers", nullptr, "buffers: missing"},
           {"/buffers", 0, "buffers: must be >= 1"},
           {"/buffers", "2", "buffers: must be a number, not string"},
           {"/messages", nullptr, "messages: missing"},
           {"/multicasts", Json::array(), "multicasts: unknown field"},
           {"/messages/0/destinations/0", "n0", "messages[0].destinations[0]: n0 is the message's own source"},
           {"/messages/0/dst_file", 7, "messages[0].dst_file: must be a non-empty string"}});
}

BOOST_AUTO_TEST_CASE(the_journaled_form_reads_back_to_the_same_job) {
  for (const std::string& example : {kReduce, kAllreduce, kMulticast, kBuffered}) {
    const bc::JobSpec spec = bc::parse_job_spec(example);
    const std::string written = bc::collective_json(spec.collective);
    const bc::JobSpec again = bc::parse_job_spec(written);
    BOOST_TEST(bc::collective_json(again.collective) == written);
    BOOST_TEST(again.nodes() == spec.nodes(), boost::test_tools::per_element());
    // A priority is journaled with it, and read back.
    BOOST_TEST(bc::parse_job_spec(bc::collective_json(spec.collective, 7)).priority == 7);
  }
}

BOOST_AUTO_TEST_SUITE_END()
