// Reading documents the coordinator wrote (its API's answers, its journal's records) back
// into typed reports: each field required or optional as the format says, every error an
// InputError naming the field's path ("report.steps[2].seconds: must be a number"). Members
// not asked for are ignored (a newer coordinator's extensions).
#pragma once

#include "coordinator/json/input.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace baton::json {

// The value must be an object; `path` names it ("document" when empty).
const Json& object_at(const Json& value, std::string_view path);
// Whether the member exists and is not null.
bool present(const Json& object, std::string_view name);

// The member `name` of `object` (whose path is `parent`) must exist and be of the type.
std::string text(const Json& object, std::string_view parent, std::string_view name);
double number(const Json& object, std::string_view parent, std::string_view name);        // any finite number
std::uint64_t count(const Json& object, std::string_view parent, std::string_view name);  // whole, >= 0
std::uint64_t count(const Json& value, std::string_view path);
bool flag(const Json& object, std::string_view parent, std::string_view name);
std::vector<std::string> names(const Json& object, std::string_view parent, std::string_view name);  // of strings

// The same, or none when the member is absent or null.
std::optional<std::string> maybe_text(const Json& object, std::string_view parent, std::string_view name);
std::optional<double> maybe_number(const Json& object, std::string_view parent, std::string_view name);
std::optional<std::uint64_t> maybe_count(const Json& object, std::string_view parent, std::string_view name);

}  // namespace baton::json
