#include "coordinator/collectives/collective_algorithm.h"

#include "coordinator/schedule/name_table.h"
#include "error/error.h"

#include <string>

namespace baton::collectives {
namespace {

namespace red = schedule::reduction;
namespace mc = schedule::multicast;
namespace bm = schedule::buffered_multicast;

constexpr schedule::NameTable<Algorithm, 23> kNames{{
    {Algorithm::automatic, "auto"},
    {Algorithm::snf, "snf"},
    {Algorithm::dp, "dp"},
    {Algorithm::bnb, "bnb"},
    {Algorithm::binomial, "binomial"},
    {Algorithm::snf_fnf, "snf-fnf"},
    {Algorithm::fef, "fef"},
    {Algorithm::ecf, "ecf"},
    {Algorithm::wr, "wr"},
    {Algorithm::eaf, "eaf"},
    {Algorithm::rr, "rr"},
    {Algorithm::rrs, "rrs"},
    {Algorithm::ecfp, "ecfp"},
    {Algorithm::wrp, "wrp"},
    {Algorithm::eafp, "eafp"},
    {Algorithm::rrp, "rrp"},
    {Algorithm::rrsp, "rrsp"},
    {Algorithm::coloring, "coloring"},
    {Algorithm::ordered_coloring, "ordered-coloring"},
    {Algorithm::flat, "flat"},
    {Algorithm::ring, "ring"},
    {Algorithm::pipelined_tree, "pipelined-tree"},
    {Algorithm::rate_rsag, "rate-rsag"},
}};

[[noreturn]] void no_scheduler(Algorithm algorithm, const char* family) {
  throw error::Bug("collective algorithm " + std::string(name(algorithm)) + " is no " + family + " scheduler");
}

}  // namespace

std::string_view name(Algorithm algorithm) {
  if (const auto found = schedule::find_name(kNames, algorithm)) return *found;
  throw error::Bug("unknown collective algorithm");
}

std::vector<Algorithm> algorithms(jobs::JobKind kind) {
  using enum Algorithm;
  switch (kind) {
    case jobs::JobKind::redistribution: return {};
    case jobs::JobKind::reduce: return {automatic, snf, dp, bnb, binomial, flat, pipelined_tree};
    case jobs::JobKind::allreduce: return {automatic, snf_fnf, binomial, ring, pipelined_tree, rate_rsag};
    case jobs::JobKind::multicast:
      return {automatic, wrp, fef, ecf, wr, eaf, rr, rrs, ecfp, eafp, rrp, rrsp, flat, binomial, pipelined_tree};
    case jobs::JobKind::buffered_multicast: return {automatic, ordered_coloring, coloring};
  }
  throw error::Bug("unknown job kind");
}

std::optional<Algorithm> parse_algorithm(jobs::JobKind kind, std::string_view text) {
  for (const Algorithm a : algorithms(kind)) {
    if (name(a) == text) return a;
  }
  return std::nullopt;
}

red::ReductionAlgorithm reduction_scheduler(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::snf: return red::ReductionAlgorithm::snf;
    case Algorithm::dp: return red::ReductionAlgorithm::dp;
    case Algorithm::bnb: return red::ReductionAlgorithm::bnb;
    case Algorithm::binomial: return red::ReductionAlgorithm::binomial;
    default: no_scheduler(algorithm, "reduction");
  }
}

red::AllReduceAlgorithm allreduce_scheduler(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::snf_fnf: return red::AllReduceAlgorithm::snf_fnf;
    case Algorithm::binomial: return red::AllReduceAlgorithm::binomial;
    default: no_scheduler(algorithm, "all-reduction");
  }
}

mc::Algorithm multicast_scheduler(Algorithm algorithm) {
  using mc::BaseAlgorithm;
  using mc::Placement;
  switch (algorithm) {
    case Algorithm::fef: return {BaseAlgorithm::fef, Placement::append};
    case Algorithm::ecf: return {BaseAlgorithm::ecf, Placement::append};
    case Algorithm::wr: return {BaseAlgorithm::wr, Placement::append};
    case Algorithm::eaf: return {BaseAlgorithm::eaf, Placement::append};
    case Algorithm::rr: return {BaseAlgorithm::rr, Placement::append};
    case Algorithm::rrs: return {BaseAlgorithm::rrs, Placement::append};
    case Algorithm::ecfp: return {BaseAlgorithm::ecf, Placement::preemptive};
    case Algorithm::wrp: return {BaseAlgorithm::wr, Placement::preemptive};
    case Algorithm::eafp: return {BaseAlgorithm::eaf, Placement::preemptive};
    case Algorithm::rrp: return {BaseAlgorithm::rr, Placement::preemptive};
    case Algorithm::rrsp: return {BaseAlgorithm::rrs, Placement::preemptive};
    default: no_scheduler(algorithm, "multicast");
  }
}

bm::Algorithm buffered_multicast_scheduler(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::coloring: return bm::Algorithm::coloring;
    case Algorithm::ordered_coloring: return bm::Algorithm::ordered_coloring;
    default: no_scheduler(algorithm, "buffered multicast");
  }
}

}  // namespace baton::collectives
