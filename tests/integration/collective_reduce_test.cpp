// Reductions and all-reductions end to end (docs/collectives.md): real agents on loopback
// with unequal declared rates combine real arrays with every algorithm. Each result is
// checked element by element against a computation in this test: integers exactly (any
// order gives the same wrapped value), floats bit for bit against the fold order the report
// gives for each combine and within the error bound of any summation order.
#include "tests/integration/collective_arrays.h"
#include "tests/integration/collective_cluster.h"
#include "tests/integration/collective_report.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <map>

using baton::test::CollectiveCluster;
using baton::test::Json;
using namespace baton::test;

namespace {

// The data file holds a 64-byte header the job skips (data.offset), then the array.
constexpr std::uint64_t kOffset = 64;
constexpr std::size_t kCount = 40'000;  // 160 or 320 kB: tens of milliseconds per flow at these rates

struct Case {
  std::string algorithm, dtype, op;
  std::vector<std::string> nodes;
  std::string root;  // reduce only
};

// Writes each node's array into its data file (behind the header) and returns the arrays.
std::map<std::string, std::string> write_arrays(CollectiveCluster& c, const Case& k, const std::string& file,
                                                unsigned seed) {
  std::map<std::string, std::string> arrays;
  for (std::size_t i = 0; i < k.nodes.size(); ++i) {
    const std::string& node = k.nodes[i];
    arrays[node] = make_array(k.dtype, k.op, kCount, seed + static_cast<unsigned>(i));
    const std::string header = make_array("u64", "sum", kOffset / 8, 1000 + seed);
    std::ofstream(c.cluster.root(node) / file, std::ios::binary) << header << arrays[node];
    std::filesystem::remove(c.cluster.root(node) / "result.bin");
  }
  return arrays;
}

Json job_of(const std::string& kind, const Case& k, const std::string& file) {
  Json job{{"kind", kind},
           {"nodes", k.nodes},
           {"data", {{"file", file}, {"offset", kOffset}, {"count", kCount}, {"dtype", k.dtype}}},
           {"op", k.op},
           {"result", {{"file", "result.bin"}}},
           {"algorithm", k.algorithm}};
  if (kind == "reduce") job["root"] = k.root;
  return job;
}

std::vector<std::string> in_node_order(const std::map<std::string, std::string>& arrays, const Case& k) {
  std::vector<std::string> inputs;
  for (const std::string& node : k.nodes) inputs.push_back(arrays.at(node));
  return inputs;
}

std::string label(const std::string& kind, const Case& k) {
  return kind + " " + k.algorithm + " " + k.dtype + " " + k.op + (k.root.empty() ? "" : " root " + k.root);
}

// Every non-root node sends its (partial) array once in a reduction; an all-reduction
// moves it twice over (a reduction, then the result to every node), whatever the
// algorithm: the ring's 2(N−1) segments of m/N bytes per node add up to the same.
// At most the report's k sends of a node at once.
void check_traffic(const std::vector<ReportTask>& tasks, const Case& k, std::uint64_t copies, const Json& done,
                   const std::string& what) {
  std::uint64_t sent = 0;
  for (const ReportTask& t : tasks) sent += t.kind == "send" ? t.bytes : 0;
  const std::uint64_t array = kCount * element_size(k.dtype);
  BOOST_TEST(sent == copies * (k.nodes.size() - 1) * array, what << ": bytes sent in the report");
  const auto sends_at_once = done.at("report").at("k").get<std::size_t>();
  for (const std::string& problem : send_time_problems(tasks, sends_at_once)) BOOST_ERROR(what << ": " << problem);
}

// Whether a tree's plan was cut into segments: more sends than a whole-message tree has.
bool segmented(const std::vector<ReportTask>& tasks, const Case& k) {
  std::size_t sends = 0;
  for (const ReportTask& t : tasks) sends += t.kind == "send" ? 1 : 0;
  return sends > (k.root.empty() ? 2 : 1) * (k.nodes.size() - 1);
}

void check_report_predictions(const Json& done, const std::string& what) {
  const Json& report = done.at("report");
  BOOST_TEST(report.value("predicted_seconds", 0.0) > 0, what << ": the plan's prediction");
  BOOST_TEST(report.value("measured_seconds", 0.0) > 0, what << ": measured");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(collective_reduce)

BOOST_AUTO_TEST_CASE(every_reduce_algorithm_gives_the_reduction_at_the_root) {
  CollectiveCluster c;
  const std::vector<std::string> all = c.nodes;
  // dp is for at most two sender speeds (docs/reduction.md, "DP classes"): two declared
  // rates only, the slow nodes and the fastest.
  const std::vector<std::string> two_speeds{"n0", "n1", "n5", "n6", "n7", "n8"};
  const std::vector<Case> cases{{"snf", "f32", "sum", all, "n0"},
                                {"snf", "i64", "bxor", all, "n6"},
                                {"dp", "f64", "sum", two_speeds, "n1"},
                                {"dp", "u32", "band", two_speeds, "n5"},
                                {"bnb", "f32", "sum", all, "n2"},
                                {"bnb", "i32", "prod", all, "n0"},
                                {"binomial", "f64", "sum", all, "n0"},
                                {"binomial", "u64", "bor", all, "n3"},
                                {"flat", "f32", "max", all, "n1"},
                                {"flat", "i32", "min", all, "n8"},
                                {"flat", "f64", "sum", all, "n0"},
                                {"pipelined-tree", "f64", "sum", all, "n0"},
                                {"pipelined-tree", "i64", "bxor", all, "n4"}};
  unsigned seed = 1;
  std::size_t pipelines = 0;  // pipelined-tree cases whose plan was cut into segments
  for (const Case& k : cases) {
    const std::string what = label("reduce", k);
    BOOST_TEST_CONTEXT(what) {
      const auto arrays = write_arrays(c, k, "grad.bin", seed += 100);
      const std::optional<Json> ran = c.run(job_of("reduce", k, "grad.bin"));
      if (!ran) continue;
      const Json& done = *ran;
      const std::string result = read_file(c.cluster.root(k.root) / "result.bin");
      const std::vector<std::string> inputs = in_node_order(arrays, k);
      const std::optional<std::vector<ReportTask>> reported = tasks_or_error(done, what);
      const std::vector<ReportTask> tasks = reported.value_or(std::vector<ReportTask>{});
      if (integer_dtype(k.dtype)) {
        const std::string wrong = first_difference(k.dtype, result, fold_in_order(k.dtype, k.op, inputs));
        BOOST_TEST(wrong.empty(), what << ": " << wrong);
      } else {
        std::string first;
        BOOST_TEST(count_outside_error_bound(k.dtype, k.op, result, inputs, &first) == 0u, what << ": " << first);
        try {
          const std::string wrong =
              first_difference(k.dtype, result, fold_as_reported(tasks, k.root, k.dtype, k.op, arrays));
          BOOST_TEST(wrong.empty(), what << ": against the report's fold order: " << wrong);
          BOOST_TEST(folded_nodes(tasks, k.root).size() == k.nodes.size(), what << ": nodes folded at the root");
        } catch (const std::exception& e) {
          BOOST_ERROR(what << ": " << e.what());
        }
      }
      for (const std::string& node : k.nodes) {
        if (node != k.root) BOOST_TEST(!std::filesystem::exists(c.cluster.root(node) / "result.bin"), node);
      }
      if (reported) check_traffic(tasks, k, 1, done, what);
      if (reported && k.algorithm == "pipelined-tree" && segmented(tasks, k)) ++pipelines;
      check_report_predictions(done, what);
      // Every algorithm but flat and Baton's pipelined tree is a paper's: the report gives
      // its model's makespan too; the pipelined tree has none.
      if (k.algorithm == "pipelined-tree") BOOST_TEST(!done.at("report").contains("model_seconds"), what);
      else if (k.algorithm != "flat") BOOST_TEST(done.at("report").contains("model_seconds"), what);
    }
  }
  // At these sizes the prediction cuts at least one pipelined tree into segments (with a
  // slow root it keeps whole messages): the agents ran a real pipeline, checked above.
  BOOST_TEST(pipelines >= 1u);
}

BOOST_AUTO_TEST_CASE(every_allreduce_algorithm_gives_every_node_the_reduction) {
  CollectiveCluster c;
  const std::vector<std::string> all = c.nodes;
  const std::vector<std::string> seven{"n0", "n1", "n2", "n3", "n5", "n6", "n7"};
  const std::vector<Case> cases{{"snf-fnf", "f32", "sum", all, ""},
                                {"snf-fnf", "i64", "max", seven, ""},
                                {"binomial", "f64", "sum", all, ""},
                                {"binomial", "u32", "bxor", seven, ""},
                                {"ring", "f32", "sum", all, ""},
                                {"ring", "i64", "sum", seven, ""},
                                {"ring", "u64", "band", all, ""},
                                {"pipelined-tree", "f64", "sum", all, ""},
                                {"pipelined-tree", "u32", "bxor", seven, ""},
                                {"rate-rsag", "f64", "sum", all, ""},
                                {"rate-rsag", "i64", "sum", seven, ""}};
  unsigned seed = 7;
  for (const Case& k : cases) {
    const std::string what = label("allreduce", k);
    BOOST_TEST_CONTEXT(what) {
      const auto arrays = write_arrays(c, k, "grad.bin", seed += 100);
      const std::optional<Json> ran = c.run(job_of("allreduce", k, "grad.bin"));
      if (!ran) continue;
      const Json& done = *ran;
      const std::vector<std::string> inputs = in_node_order(arrays, k);
      const std::optional<std::vector<ReportTask>> reported = tasks_or_error(done, what);
      const std::vector<ReportTask> tasks = reported.value_or(std::vector<ReportTask>{});
      // A tree (snf-fnf, binomial, pipelined-tree): one node folds everything, in the
      // report's order, and every node ends with exactly its bits. The ring and rate-rsag
      // fold each segment or shard in a different order on a different node: there the
      // error bound is the check.
      std::string tree_result;
      const bool one_folder = k.algorithm != "ring" && k.algorithm != "rate-rsag";
      if (!integer_dtype(k.dtype) && one_folder) {
        try {
          for (const std::string& node : k.nodes) {
            if (folded_nodes(tasks, node).size() == k.nodes.size()) {
              tree_result = fold_as_reported(tasks, node, k.dtype, k.op, arrays);
            }
          }
          BOOST_TEST(!tree_result.empty(), what << ": no node's combine folds every node's data in the report");
        } catch (const std::exception& e) {
          BOOST_ERROR(what << ": " << e.what());
        }
      }
      const std::string exact = integer_dtype(k.dtype) ? fold_in_order(k.dtype, k.op, inputs) : "";
      for (const std::string& node : k.nodes) {
        const std::string result = read_file(c.cluster.root(node) / "result.bin");
        if (integer_dtype(k.dtype)) {
          const std::string wrong = first_difference(k.dtype, result, exact);
          BOOST_TEST(wrong.empty(), what << ": on " << node << ": " << wrong);
          continue;
        }
        std::string first;
        BOOST_TEST(count_outside_error_bound(k.dtype, k.op, result, inputs, &first) == 0u,
                   what << ": on " << node << ": " << first);
        if (!tree_result.empty()) {
          const std::string wrong = first_difference(k.dtype, result, tree_result);
          BOOST_TEST(wrong.empty(), what << ": on " << node << ", against the report's fold order: " << wrong);
        }
      }
      if (reported) check_traffic(tasks, k, 2, done, what);
      check_report_predictions(done, what);
      // The ring and Baton's own algorithms are no paper's; the others have a model makespan.
      BOOST_TEST(done.at("report").contains("model_seconds") ==
                     (k.algorithm != "ring" && k.algorithm != "pipelined-tree" && k.algorithm != "rate-rsag"),
                 what);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
