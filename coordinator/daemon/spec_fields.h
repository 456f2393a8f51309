// The fields every job kind's parser reads (job_spec*.cpp), each error one line naming the
// field: node lists, names, whole numbers, a collective's algorithm.
#pragma once

#include "coordinator/collectives/collective_algorithm.h"
#include "coordinator/json/input.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace baton::coordinator {

// The most nodes a job may name.
inline constexpr std::size_t kMaxNodes = 4096;

// object[name]: an array of `min`..kMaxNodes distinct non-empty node ids ("nodes[3]: n1 is
// listed twice (nodes[1])").
std::vector<std::string> node_list(const json::Json& object, std::string_view parent, std::string_view name,
                                   std::size_t min = 1);

// object[name]: a non-empty string.
std::string text(const json::Json& object, std::string_view parent, std::string_view name);

// object[name]: a whole number within [min, 2^63 - 1].
std::uint64_t whole(const json::Json& object, std::string_view parent, std::string_view name, std::int64_t min);

// object[name], a string naming a node of `nodes` ("root: n9 is not one of nodes").
std::string node_of(const json::Json& object, std::string_view parent, std::string_view name,
                    const std::vector<std::string>& nodes);
// `value` at `path` names a node of `nodes`.
std::string node_at(const json::Json& value, const std::string& path, const std::vector<std::string>& nodes);

// job["algorithm"], one of `kind`'s algorithms ("auto" when the member is absent):
// "algorithm: unknown algorithm \"x\" for a reduce (auto, snf, dp, bnb, binomial, flat, pipelined-tree)".
collectives::Algorithm collective_algorithm(const json::Json& job, jobs::JobKind kind, const std::string& what);

}  // namespace baton::coordinator
