// Reading the daemons' TOML configuration strictly (agent/config.cpp,
// coordinator/daemon/config.cpp). toml11's find_or falls back to the default when a key
// has the wrong type, which would hide a mistake such as rate = "fast"; a wrong type is a
// configuration error and is named instead. Numbers may be written either way
// (rate = 100000000 is as good as 1e8).
#pragma once

#include <toml.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace baton::config {

template <class T>
T field_or(const toml::value& file, const std::string& key, T fallback) {
  if (!file.contains(key)) return fallback;
  const toml::value& value = file.at(key);
  if constexpr (std::is_same_v<T, double>) {
    if (value.is_integer()) return static_cast<double>(value.as_integer());
    if (value.is_floating()) return value.as_floating();
    throw std::runtime_error(key + " must be a number");
  } else {
    return toml::get<T>(value);  // a type_error naming the key's line
  }
}

}  // namespace baton::config
