// The reduce and all-reduce jobs of docs/collectives.md:
//   {"kind": "reduce", "nodes": [...], "root": "n0",
//    "data": {"file", "offset", "count", "dtype"}, "op", "result": {"file"}, "algorithm"}
// (all-reduce: no root).
#include "coordinator/daemon/job_spec.h"
#include "coordinator/daemon/spec_fields.h"

#include <limits>

namespace baton::coordinator {
namespace {

using json::InputError;
using json::Json;

collectives::ArrayData array_data(const Json& job) {
  const Json& data =
      json::require_object(json::require_member(job, "", "data"), "data", {"file", "offset", "count", "dtype"});
  collectives::ArrayData out;
  out.file = text(data, "data", "file");
  out.offset = data.contains("offset") ? whole(data, "data", "offset", 0) : 0;
  out.count = whole(data, "data", "count", 1);
  const std::string dtype = text(data, "data", "dtype");
  const auto parsed = collectives::parse_dtype(dtype);
  if (!parsed) throw InputError("data.dtype: unknown dtype \"" + dtype + "\" (f32, f64, i32, i64, u32, u64)");
  out.dtype = *parsed;
  // Every byte range of the job stays within 2^63 (the JSON's own limit on offsets).
  const std::uint64_t limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (out.count > (limit - out.offset) / collectives::element_size(out.dtype)) {
    throw InputError("data.count: " + std::to_string(out.count) + " elements of " + dtype + " at offset " +
                     std::to_string(out.offset) + " run past 2^63 bytes");
  }
  return out;
}

protocol::ReduceOp reduce_op(const Json& job, protocol::DataType dtype) {
  const std::string op = text(job, "", "op");
  const auto parsed = collectives::parse_op(op);
  if (!parsed) throw InputError("op: unknown op \"" + op + "\" (sum, prod, min, max, band, bor, bxor)");
  if (collectives::integer_only(*parsed) && !collectives::integer(dtype)) {
    throw InputError("op: " + op + " needs an integer dtype, not " + std::string(collectives::name(dtype)));
  }
  return *parsed;
}

}  // namespace

collectives::CollectiveJob parse_reduce_job(const Json& job, jobs::JobKind kind) {
  const bool reduce = kind == jobs::JobKind::reduce;
  if (reduce) json::require_object(job, "", {"kind", "nodes", "root", "data", "op", "result", "algorithm", "priority"});
  else json::require_object(job, "", {"kind", "nodes", "data", "op", "result", "algorithm", "priority"});
  collectives::CollectiveJob out;
  out.kind = kind;
  out.nodes = node_list(job, "", "nodes", 2);
  if (reduce) out.root = node_of(job, "", "root", out.nodes);
  out.data = array_data(job);
  out.op = reduce_op(job, out.data.dtype);
  const Json& result = json::require_object(json::require_member(job, "", "result"), "result", {"file"});
  out.result_file = text(result, "result", "file");
  if (out.result_file == out.data.file && out.data.offset != 0) {
    throw InputError("result.file: " + out.result_file +
                     " is also data.file: an in-place result needs data.offset 0 (the result is written at offset 0)");
  }
  // Every node would still send or combine its data while the result it receives is
  // written over it: the agents refuse such plans (a race), so the job is refused here.
  if (kind == jobs::JobKind::allreduce && jobs::normal_name(out.result_file) == jobs::normal_name(out.data.file)) {
    throw InputError("result.file: " + out.result_file + " is data.file " + out.data.file +
                     ": an all-reduce does not run in place (each node still reads its data while the result "
                     "arrives); name another result file");
  }
  out.algorithm = collective_algorithm(job, kind, reduce ? "a reduce" : "an allreduce");
  if (out.algorithm == collectives::Algorithm::ring && out.data.count < out.nodes.size()) {
    throw InputError("data.count: ring cuts the array into one segment per node: " + std::to_string(out.nodes.size()) +
                     " nodes need at least " + std::to_string(out.nodes.size()) + " elements, not " +
                     std::to_string(out.data.count));
  }
  return out;
}

Json reduce_job_json(const collectives::CollectiveJob& job) {
  Json out{{"kind", jobs::name(job.kind)}, {"nodes", job.nodes}};
  if (job.kind == jobs::JobKind::reduce) out["root"] = job.root;
  out["data"] = Json{{"file", job.data.file},
                     {"offset", job.data.offset},
                     {"count", job.data.count},
                     {"dtype", collectives::name(job.data.dtype)}};
  out["op"] = collectives::name(job.op);
  out["result"] = Json{{"file", job.result_file}};
  out["algorithm"] = collectives::name(job.algorithm);
  return out;
}

}  // namespace baton::coordinator
