#include "coordinator/json/fields.h"

#include <limits>

namespace baton::json {
namespace {

constexpr std::int64_t kMaxCount = std::numeric_limits<std::int64_t>::max();
constexpr double kMaxNumber = std::numeric_limits<double>::max();

}  // namespace

const Json& object_at(const Json& value, std::string_view path) {
  if (!value.is_object())
    throw InputError((path.empty() ? std::string("document") : std::string(path)) + ": must be an object");
  return value;
}

bool present(const Json& object, std::string_view name) {
  const auto it = object.find(std::string(name));
  return it != object.end() && !it->is_null();
}

std::string text(const Json& object, std::string_view parent, std::string_view name) {
  const Json& value = require_member(object, parent, name);
  if (!value.is_string()) throw InputError(member_path(parent, name) + ": must be a string");
  return value.get<std::string>();
}

double number(const Json& object, std::string_view parent, std::string_view name) {
  return require_number(require_member(object, parent, name), member_path(parent, name), -kMaxNumber, kMaxNumber);
}

std::uint64_t count(const Json& value, std::string_view path) {
  return static_cast<std::uint64_t>(require_integer(value, path, 0, kMaxCount));
}

std::uint64_t count(const Json& object, std::string_view parent, std::string_view name) {
  return count(require_member(object, parent, name), member_path(parent, name));
}

bool flag(const Json& object, std::string_view parent, std::string_view name) {
  const Json& value = require_member(object, parent, name);
  if (!value.is_boolean()) throw InputError(member_path(parent, name) + ": must be true or false");
  return value.get<bool>();
}

std::vector<std::string> names(const Json& object, std::string_view parent, std::string_view name) {
  const std::string path = member_path(parent, name);
  const Json& list = require_array(require_member(object, parent, name), path, 0, kMaxCount);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string()) throw InputError(element_path(path, i) + ": must be a string");
    out.push_back(list[i].get<std::string>());
  }
  return out;
}

std::optional<std::string> maybe_text(const Json& object, std::string_view parent, std::string_view name) {
  if (!present(object, name)) return std::nullopt;
  return text(object, parent, name);
}

std::optional<double> maybe_number(const Json& object, std::string_view parent, std::string_view name) {
  if (!present(object, name)) return std::nullopt;
  return number(object, parent, name);
}

std::optional<std::uint64_t> maybe_count(const Json& object, std::string_view parent, std::string_view name) {
  if (!present(object, name)) return std::nullopt;
  return count(object, parent, name);
}

}  // namespace baton::json
