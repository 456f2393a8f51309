// The random instances the sweeps run on: many shapes (sizes, degrees, fan-outs, senders
// that also receive or not, full or partial senders, buffer counts below, at and above d),
// all from fixed seeds.
#pragma once

#include "coordinator/schedule/buffered_multicast/random_instance.h"

#include <cstddef>
#include <vector>

namespace baton::schedule::buffered_multicast::test {

// `count` option sets; the same count always gives the same sets.
std::vector<RandomInstanceOptions> random_shapes(std::size_t count, std::uint64_t seed);

// For each message, its 1-based position among its source's messages in input order: the
// bundle label i the paper assigns. Computed here, independently of the planners.
std::vector<std::size_t> source_bundle_index(const Problem& problem);

}  // namespace baton::schedule::buffered_multicast::test
