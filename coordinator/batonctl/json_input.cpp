#include "coordinator/batonctl/json_input.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

namespace baton::cli {
namespace {

std::string type_name(const Json& value) {
  return std::string(value.type_name());
}

std::string format_number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

}  // namespace

namespace {

// Reads at most kMaxInputBytes; more is refused rather than held in memory.
std::string read_capped(std::istream& in, const std::string& name) {
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInputBytes) {
      throw InputError(name + ": larger than " + std::to_string(kMaxInputBytes >> 20) + " MiB");
    }
  }
  if (in.bad()) throw InputError(name + ": cannot read: " + std::strerror(errno));
  return text;
}

}  // namespace

std::string read_input(const std::string& path) {
  if (path == "-") return read_capped(std::cin, "input");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  return read_capped(in, path);
}

Json parse_document(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw InputError("input: empty (expected a JSON object)");
  }
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw InputError("input: not valid JSON at byte " + std::to_string(e.byte));
  } catch (const Json::out_of_range& e) {  // a number beyond a double, such as 1e999
    throw InputError(std::string("input: ") + e.what());
  }
}

std::string member_path(std::string_view parent, std::string_view name) {
  if (parent.empty()) return std::string(name);
  return std::string(parent) + "." + std::string(name);
}

std::string element_path(std::string_view parent, std::size_t index) {
  return std::string(parent) + "[" + std::to_string(index) + "]";
}

const Json& require_object(const Json& value, std::string_view path,
                           std::initializer_list<std::string_view> known) {
  const std::string where = path.empty() ? std::string("input") : std::string(path);
  if (!value.is_object()) throw InputError(where + ": must be an object, not " + type_name(value));
  for (const auto& [key, member] : value.items()) {
    bool ok = false;
    for (std::string_view k : known) ok = ok || key == k;
    if (!ok) throw InputError(member_path(path, key) + ": unknown field");
  }
  return value;
}

const Json& require_member(const Json& object, std::string_view parent, std::string_view name) {
  auto it = object.find(std::string(name));
  if (it == object.end()) throw InputError(member_path(parent, name) + ": missing");
  return *it;
}

const Json& require_array(const Json& value, std::string_view path, std::size_t min_size,
                          std::size_t max_size) {
  if (!value.is_array()) {
    throw InputError(std::string(path) + ": must be an array, not " + type_name(value));
  }
  if (value.size() < min_size) {
    throw InputError(std::string(path) + ": must hold at least " + std::to_string(min_size) +
                     (min_size == 1 ? " element" : " elements"));
  }
  if (value.size() > max_size) {
    throw InputError(std::string(path) + ": holds " + std::to_string(value.size()) +
                     " elements, more than the limit of " + std::to_string(max_size));
  }
  return value;
}

double require_number(const Json& value, std::string_view path, double min, double max) {
  if (!value.is_number()) {
    throw InputError(std::string(path) + ": must be a number, not " + type_name(value));
  }
  const double v = value.get<double>();
  if (!std::isfinite(v)) throw InputError(std::string(path) + ": must be finite");
  if (v < min) throw InputError(std::string(path) + ": must be >= " + format_number(min));
  if (v > max) throw InputError(std::string(path) + ": must be <= " + format_number(max));
  return v;
}

double require_positive(const Json& value, std::string_view path) {
  const double v = require_number(value, path, 0.0, std::numeric_limits<double>::max());
  if (v <= 0.0) throw InputError(std::string(path) + ": must be > 0");
  return v;
}

std::int64_t require_integer(const Json& value, std::string_view path, std::int64_t min,
                             std::int64_t max) {
  if (value.is_number_integer()) {
    // Unsigned values above INT64_MAX arrive as number_unsigned; compare before converting.
    if (value.is_number_unsigned() &&
        value.get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
      throw InputError(std::string(path) + ": must be <= " + std::to_string(max));
    }
    const std::int64_t v = value.get<std::int64_t>();
    if (v < min) throw InputError(std::string(path) + ": must be >= " + std::to_string(min));
    if (v > max) throw InputError(std::string(path) + ": must be <= " + std::to_string(max));
    return v;
  }
  const double v = require_number(value, path, static_cast<double>(min), static_cast<double>(max));
  if (std::floor(v) != v) throw InputError(std::string(path) + ": must be a whole number");
  return static_cast<std::int64_t>(v);
}

}  // namespace baton::cli
