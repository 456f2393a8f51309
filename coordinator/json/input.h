// Reading user-supplied JSON with errors that name the offending field: batonctl's input
// files and the coordinator's job API share it.
//
// Every function throws InputError whose message is one line that starts with the
// field's path ("matrix[1][2]: must be >= 0"). batonctl prints that line and exits 2; the
// API answers it with 400.
#pragma once

#include "error/error.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>

namespace baton::json {

using Json = nlohmann::ordered_json;  // keeps keys in the order docs/formats.md shows them

// Bad user input: the message names the field and what is wrong with it.
class InputError : public error::InvalidInput {
 public:
  using error::InvalidInput::InvalidInput;
};

// The largest input document accepted (a 1024 × 1024 matrix is about 20 MiB of JSON).
inline constexpr std::size_t kMaxInputBytes = std::size_t{256} << 20;

// Reads a whole file, or standard input when path is "-"; refuses more than kMaxInputBytes.
std::string read_input(const std::string& path);

// Parses one JSON document with nothing but whitespace after it. Every bad input is an
// InputError naming the byte (counted from 1) or the field: empty text, a NUL byte,
// nesting deeper than 64 levels (checked before parsing, without recursion), a syntax
// error or invalid UTF-8, a number beyond a double (1e999999), a member given twice, and
// more than `max_values` values (each number, string, literal, array and object counts;
// the first one past them is named), which bounds what the document can take in memory
// whatever its shape: a 3 MiB array of zeros parsed into 80 MiB.
Json parse_document(std::string_view text, std::size_t max_values = std::numeric_limits<std::size_t>::max());

// The path of a member or an element, for error messages: "platform.step_startup", "traffic[2]".
std::string member_path(std::string_view parent, std::string_view name);
std::string element_path(std::string_view parent, std::size_t index);

// The value must be an object; members not in `known` are rejected (a typo would otherwise
// be silently ignored and change the plan).
const Json& require_object(const Json& value, std::string_view path, std::initializer_list<std::string_view> known);

// The member must exist.
const Json& require_member(const Json& object, std::string_view parent, std::string_view name);

// The value must be an array of at most max_size elements (empty allowed when min_size is 0).
const Json& require_array(const Json& value, std::string_view path, std::size_t min_size, std::size_t max_size);

// The value must be a finite JSON number within [min, max].
double require_number(const Json& value, std::string_view path, double min, double max);

// The value must be a finite number > 0.
double require_positive(const Json& value, std::string_view path);

// The value must be a whole number within [min, max] (1e3 counts as whole, 2.5 does not).
std::int64_t require_integer(const Json& value, std::string_view path, std::int64_t min, std::int64_t max);

}  // namespace baton::json
