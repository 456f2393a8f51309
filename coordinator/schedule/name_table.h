// An enum's names as one table of (value, name) pairs, read both ways: each scheduler's
// algorithms, the job kinds and the collective algorithms (docs/formats.md lists the names).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace baton::schedule {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

// The name of `value`; nothing if the table lacks it.
template <typename Enum, std::size_t N>
constexpr std::optional<std::string_view> find_name(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& [v, n] : table) {
    if (v == value) return n;
  }
  return std::nullopt;
}

// The value named `name`; nothing if no entry has that name.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> find_value(const NameTable<Enum, N>& table, std::string_view name) {
  for (const auto& [v, n] : table) {
    if (n == name) return v;
  }
  return std::nullopt;
}

// Every name, in the table's order.
template <typename Enum, std::size_t N>
std::vector<std::string> names_of(const NameTable<Enum, N>& table) {
  std::vector<std::string> names;
  for (const auto& entry : table) names.emplace_back(entry.second);
  return names;
}

}  // namespace baton::schedule
