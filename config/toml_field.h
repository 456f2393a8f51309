// Reading the keys of a daemon's TOML configuration strictly (agent/config.cpp,
// coordinator/daemon/config.cpp): a key of the wrong type is a configuration error named
// with its key, the type it must have and its line, never replaced by the default (rate =
// "fast" is refused). Numbers may be written either way (rate = 100000000 is as good as
// 1e8); integers may not be written as floats (buffer_count = 64.0 is refused).
#pragma once

#include "cli/closest_word.h"
#include "config/toml_file.h"
#include "error/error.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace baton::config {

// "a string", "an integer", ...: what a key's value is, for "must be ..., not ...".
inline std::string type_name(toml::node_type type) {
  switch (type) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::none: break;
  }
  return "nothing";
}

// A key's value as T: double (from an integer or a float), std::int64_t, bool, std::string
// or std::vector<std::string> (an array of strings). error::InvalidInput naming the key,
// what it must be, what it is and its line otherwise.
template <class T>
T field(const toml::node& value, const std::string& key) {
  const auto wrong = [&](const std::string& must_be, const toml::node& found) {
    return error::InvalidInput(key + " must be " + must_be + ", not " + type_name(found.type()) +
                               line_of(found.source()));
  };
  if constexpr (std::is_same_v<T, double>) {
    if (const auto* integer = value.as_integer()) return static_cast<double>(integer->get());
    if (const auto* floating = value.as_floating_point()) return floating->get();
    throw wrong("a number", value);
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    if (const auto* integer = value.as_integer()) return integer->get();
    throw wrong("an integer", value);
  } else if constexpr (std::is_same_v<T, bool>) {
    if (const auto* boolean = value.as_boolean()) return boolean->get();
    throw wrong("true or false", value);
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (const auto* string = value.as_string()) return string->get();
    throw wrong("a string", value);
  } else {
    static_assert(std::is_same_v<T, std::vector<std::string>>, "a type the configurations do not use");
    const auto* array = value.as_array();
    if (array == nullptr) throw wrong("a list of strings", value);
    std::vector<std::string> strings;
    for (const toml::node& item : *array) {
      const auto* string = item.as_string();
      if (string == nullptr) throw wrong("a list of strings", item);
      strings.push_back(string->get());
    }
    return strings;
  }
}

// A key the file must set.
template <class T>
T required_field(const toml::table& file, const std::string& key) {
  const toml::node* value = file.get(key);
  if (value == nullptr) throw error::InvalidInput("missing key '" + key + "' (it has no default)");
  return field<T>(*value, key);
}

// A key the file may set; `fallback` when it does not.
template <class T>
T field_or(const toml::table& file, const std::string& key, T fallback) {
  const toml::node* value = file.get(key);
  return value == nullptr ? fallback : field<T>(*value, key);
}

// Refuses a key that is not one of `known` (a misspelt key would otherwise be ignored and
// its default used), naming it, the known key it was probably meant to be, and its line.
inline void check_known_keys(const toml::table& file, const std::vector<std::string>& known) {
  for (const auto& [key, value] : file) {
    const std::string name(key.str());
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    throw error::InvalidInput("unknown key '" + name + "'" + cli::did_you_mean(name, known) + line_of(key.source()));
  }
}

// The daemons' log_level key: "info" (the default) or "debug" (systemd/logging.h).
inline std::string log_level_field(const toml::table& file) {
  const auto level = field_or<std::string>(file, "log_level", "info");
  if (level != "info" && level != "debug") {
    throw error::InvalidInput("log_level must be \"info\" or \"debug\", not \"" + level + "\"");
  }
  return level;
}

}  // namespace baton::config
