// Exact optima computed independently of the schedulers under test, for small clusters.
#pragma once

#include <cstddef>
#include <random>
#include <span>
#include <vector>

namespace baton::schedule::reduction::test {

// The optimal reduction makespan of these senders (the destination's time never matters),
// by recursion over reduction trees: the last transfer r -> destination starts when the
// senders reduced into r (a sub-multiset L) and those reduced into the destination (R)
// are both done, so OPT(M) = min over r in M, L + R = M - r of t(r) + max(OPT(L), OPT(R)).
// It does not use EP, Lemma 1 or any of the paper's lemmas. Memoized; fine for ~10 senders.
double optimal_reduction(std::vector<double> sender_times);

// The optimal broadcast makespan from `root` (holding the message at 0) when a transfer
// from p lasts times[p]: B(v, S) = min over the first receiver u in S and the part S_u of
// S - u that u serves of t(v) + max(B(u, S_u), B(v, S - u - S_u)). Up to ~10 nodes.
double optimal_broadcast(std::span<const double> times, std::size_t root);

// n times, each drawn uniformly from `speeds`.
std::vector<double> random_times(std::mt19937_64& rng, std::size_t n, std::span<const double> speeds);

}  // namespace baton::schedule::reduction::test
