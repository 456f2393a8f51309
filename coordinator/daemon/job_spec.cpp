#include "coordinator/daemon/job_spec.h"

#include "coordinator/daemon/spec_fields.h"
#include "coordinator/jobs/patterns.h"
#include "coordinator/json/input.h"
#include "coordinator/json/platform.h"
#include "error/error.h"

#include <limits>
#include <set>
#include <tuple>

namespace baton::coordinator {
namespace {

using json::InputError;
using json::Json;

jobs::Layout layout(const std::string& name, std::string_view path) {
  if (name == "block") return jobs::Layout::block;
  if (name == "block-cyclic") return jobs::Layout::block_cyclic;
  throw InputError(std::string(path) + ": must be \"block\" or \"block-cyclic\", not \"" + name + "\"");
}

std::vector<jobs::TransferSpec> transfers(const Json& job) {
  const Json& list = json::require_array(job.at("transfers"), "transfers", 1, kMaxJobTransfers);
  std::vector<jobs::TransferSpec> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = json::element_path("transfers", i);
    const Json& t = json::require_object(
        list[i], path, {"src_node", "src_file", "src_offset", "length", "dst_node", "dst_file", "dst_offset"});
    out.push_back({.src_node = text(t, path, "src_node"),
                   .src_file = text(t, path, "src_file"),
                   .src_offset = whole(t, path, "src_offset", 0),
                   .length = whole(t, path, "length", 1),
                   .dst_node = text(t, path, "dst_node"),
                   .dst_file = text(t, path, "dst_file"),
                   .dst_offset = whole(t, path, "dst_offset", 0)});
  }
  return out;
}

std::vector<jobs::TransferSpec> pattern(const Json& job, const jobs::Clusters& clusters) {
  const Json& p = json::require_object(job.at("pattern"), "pattern",
                                       {"bytes", "from", "from_block", "to", "to_block", "src_file", "dst_file"});
  jobs::RedistributionPattern pattern;
  pattern.bytes = whole(p, "pattern", "bytes", 1);
  if (p.contains("from")) pattern.from = layout(text(p, "pattern", "from"), "pattern.from");
  if (p.contains("to")) pattern.to = layout(text(p, "pattern", "to"), "pattern.to");
  if (pattern.from == jobs::Layout::block_cyclic) pattern.from_block = whole(p, "pattern", "from_block", 1);
  if (pattern.to == jobs::Layout::block_cyclic) pattern.to_block = whole(p, "pattern", "to_block", 1);
  if (p.contains("src_file")) pattern.src_file = text(p, "pattern", "src_file");
  if (p.contains("dst_file")) pattern.dst_file = text(p, "pattern", "dst_file");
  // Counted before expanding: a few bytes of JSON with tiny blocks would otherwise make
  // the coordinator build hundreds of millions of transfers.
  const std::uint64_t count = jobs::count_transfers(pattern, clusters.senders.size(), clusters.receivers.size());
  if (count > kMaxJobTransfers) {
    throw InputError("pattern: expands to " + std::to_string(count) + " transfers, more than the limit " +
                     std::to_string(kMaxJobTransfers) + "; use larger blocks");
  }
  return jobs::expand(pattern, clusters);
}

// "transfer_runs": each run is `count` transfers of `length` bytes, the i-th at src_offset
// + i * src_stride and dst_offset + i * dst_stride (a column block's rows, say). The counts
// are summed against the limit, and each run's last offsets checked, before anything is
// expanded: a few bytes of JSON cannot make millions of transfers or wrap an offset.
std::vector<jobs::TransferSpec> transfer_runs(const Json& job) {
  const Json& list = json::require_array(job.at("transfer_runs"), "transfer_runs", 1, kMaxJobTransfers);
  struct Run {
    jobs::TransferSpec first;
    std::uint64_t src_stride, dst_stride, count;
  };
  std::vector<Run> runs;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = json::element_path("transfer_runs", i);
    const Json& r = json::require_object(list[i], path,
                                         {"src_node", "src_file", "src_offset", "src_stride", "length", "dst_node",
                                          "dst_file", "dst_offset", "dst_stride", "count"});
    Run run{.first = {.src_node = text(r, path, "src_node"),
                      .src_file = text(r, path, "src_file"),
                      .src_offset = whole(r, path, "src_offset", 0),
                      .length = whole(r, path, "length", 1),
                      .dst_node = text(r, path, "dst_node"),
                      .dst_file = text(r, path, "dst_file"),
                      .dst_offset = whole(r, path, "dst_offset", 0)},
            .src_stride = whole(r, path, "src_stride", 0),
            .dst_stride = whole(r, path, "dst_stride", 0),
            .count = whole(r, path, "count", 1)};
    if (run.count > kMaxJobTransfers - total) {
      throw InputError(path + ".count: the runs expand to more than the limit of " + std::to_string(kMaxJobTransfers) +
                       " transfers");
    }
    total += run.count;
    constexpr std::uint64_t kLargest = std::numeric_limits<std::int64_t>::max();
    for (const auto& [offset, stride, name] : {std::tuple{run.first.src_offset, run.src_stride, "src"},
                                               std::tuple{run.first.dst_offset, run.dst_stride, "dst"}}) {
      if (stride != 0 && run.count - 1 > (kLargest - offset) / stride) {
        throw InputError(path + ": the last range's " + name + "_offset (" + name + "_offset + (count - 1) * " + name +
                         "_stride) is past " + std::to_string(kLargest));
      }
    }
    runs.push_back(std::move(run));
  }
  std::vector<jobs::TransferSpec> out;
  out.reserve(total);
  for (const Run& run : runs) {
    for (std::uint64_t i = 0; i < run.count; ++i) {
      out.push_back(run.first);
      out.back().src_offset += i * run.src_stride;
      out.back().dst_offset += i * run.dst_stride;
    }
  }
  return out;
}

// job["priority"]: a whole number within ±kMaxPriority, 0 when absent.
std::int64_t priority(const Json& job) {
  if (!job.contains("priority")) return 0;
  const Json& value = job["priority"];
  const bool in_range = value.is_number_unsigned()
                            ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(kMaxPriority)
                            : value.is_number_integer() && value.get<std::int64_t>() >= -kMaxPriority &&
                                  value.get<std::int64_t>() <= kMaxPriority;
  if (!in_range) {
    throw InputError("priority: must be a whole number in [-" + std::to_string(kMaxPriority) + ", " +
                     std::to_string(kMaxPriority) + "], not " + value.dump());
  }
  return value.get<std::int64_t>();
}

// job["weight"]: a number within [kMinWeight, kMaxWeight], 1 when absent.
double weight(const Json& job) {
  if (!job.contains("weight")) return 1;
  const Json& value = job["weight"];
  if (!value.is_number() || !(value.get<double>() >= kMinWeight && value.get<double>() <= kMaxWeight)) {
    throw InputError("weight: must be a number in [0.01, 100], not " + value.dump());
  }
  return value.get<double>();
}

// One rate per node where the platform names each node's.
void check_node_rates(const schedule::kpbs::Platform& platform, const jobs::Clusters& clusters) {
  const auto one_each = [](const std::vector<double>& rates, std::size_t nodes, const char* field, const char* who) {
    if (!rates.empty() && rates.size() != nodes) {
      throw InputError(std::string("platform.") + field + ": " + std::to_string(rates.size()) + " rates for " +
                       std::to_string(nodes) + " " + who);
    }
  };
  one_each(platform.sender_rates, clusters.senders.size(), "sender_rates", "senders");
  one_each(platform.receiver_rates, clusters.receivers.size(), "receiver_rates", "receivers");
}

JobSpec redistribution_spec(const Json& job) {
  json::require_object(job, "",
                       {"kind", "senders", "receivers", "algorithm", "platform", "calibration", "replan", "transfers",
                        "transfer_runs", "pattern", "priority", "weight", "keep_plan"});
  JobSpec spec;
  spec.clusters.senders = node_list(job, "", "senders");
  spec.clusters.receivers = node_list(job, "", "receivers");
  if (job.contains("algorithm")) {
    const std::string name = text(job, "", "algorithm");
    const auto algorithm = schedule::kpbs::parse_job_algorithm(name);
    if (!algorithm) {
      std::string listed;
      for (const std::string& known : schedule::kpbs::job_algorithm_names())
        listed += (listed.empty() ? "" : ", ") + known;
      throw InputError("algorithm: unknown algorithm \"" + name + "\" for a redistribution (" + listed + ")");
    }
    spec.algorithm = *algorithm;
  }
  if (job.contains("calibration")) spec.calibration = text(job, "", "calibration");
  if (job.contains("replan")) {
    if (!job["replan"].is_boolean()) throw InputError("replan: must be true or false");
    spec.replan = job["replan"].get<bool>();
  }
  spec.platform_given = job.contains("platform");
  if (spec.platform_given) {
    spec.platform = json::parse_platform(job["platform"], "platform", {.node_rates = true});
    check_node_rates(spec.platform, spec.clusters);
  }
  if (job.contains("transfers") + job.contains("transfer_runs") + job.contains("pattern") != 1) {
    throw InputError("job: give exactly one of \"transfers\", \"transfer_runs\" and \"pattern\"");
  }
  try {
    spec.transfers = job.contains("transfers")       ? transfers(job)
                     : job.contains("transfer_runs") ? transfer_runs(job)
                                                     : pattern(job, spec.clusters);
    jobs::check_transfers(spec.clusters, spec.transfers);
  } catch (const error::InvalidInput& e) {
    throw InputError(e.what());
  }
  spec.weight = weight(job);
  if (job.contains("keep_plan")) {
    if (!job["keep_plan"].is_boolean()) throw InputError("keep_plan: must be true or false");
    spec.keep_plan = job["keep_plan"].get<bool>();
  }
  return spec;
}

}  // namespace

std::vector<std::string> JobSpec::nodes() const {
  if (kind != jobs::JobKind::redistribution) return collective.nodes;
  std::vector<std::string> all = clusters.senders;
  all.insert(all.end(), clusters.receivers.begin(), clusters.receivers.end());
  return all;
}

std::vector<std::pair<std::string, std::string>> JobSpec::objects() const {
  if (kind != jobs::JobKind::redistribution) return collectives::objects_named(collective);
  std::set<std::pair<std::string, std::string>> named;
  for (const jobs::TransferSpec& t : transfers) {
    named.emplace(t.src_node, t.src_file);
    named.emplace(t.dst_node, t.dst_file);
  }
  return {named.begin(), named.end()};
}

bool JobSpec::shares_nodes() const {
  return kind == jobs::JobKind::redistribution && algorithm != schedule::kpbs::Algorithm::all_at_once;
}

std::string JobSpec::algorithm_name() const {
  return kind == jobs::JobKind::redistribution ? std::string(schedule::kpbs::name(algorithm))
                                               : std::string(collectives::name(collective.algorithm));
}

JobSpec parse_job_spec(const std::string& document) {
  const Json job = json::parse_document(document);
  if (!job.is_object()) throw InputError("input: must be an object, not " + std::string(job.type_name()));
  JobSpec spec;
  if (job.contains("kind")) {
    const std::string kind = text(job, "", "kind");
    const auto parsed = jobs::parse_job_kind(kind);
    if (!parsed) {
      throw InputError("kind: unknown kind \"" + kind +
                       "\" (redistribution, reduce, allreduce, multicast, buffered-multicast)");
    }
    spec.kind = *parsed;
  }
  if (spec.kind == jobs::JobKind::redistribution) {
    spec = redistribution_spec(job);
  } else {
    spec.collective =
        jobs::combines(spec.kind) ? parse_reduce_job(job, spec.kind) : parse_multicast_job(job, spec.kind);
  }
  spec.priority = priority(job);
  return spec;
}

std::string collective_json(const collectives::CollectiveJob& job, std::int64_t priority) {
  Json out = jobs::combines(job.kind) ? reduce_job_json(job) : multicast_job_json(job);
  if (priority != 0) out["priority"] = priority;
  return out.dump();
}

}  // namespace baton::coordinator
