#include "metrics/registry.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace baton::metrics {
namespace {

bool valid_name(const std::string& name) {
  if (name.empty()) return false;
  const auto first = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; };
  const auto rest = [&](char c) { return first(c) || std::isdigit(static_cast<unsigned char>(c)); };
  return first(name[0]) && std::all_of(name.begin() + 1, name.end(), rest);
}

// A sample value as Prometheus writes them: the shortest exact decimal, +Inf/-Inf/NaN.
std::string number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;  // shortest exact form
  return std::string(text, end);
}

// Label values escape backslash, double quote and newline; HELP escapes backslash and newline.
std::string escape(std::string_view text, bool quotes) {
  std::string out;
  for (const char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '"' && quotes) out += "\\\"";
    else out += c;
  }
  return out;
}

std::string label_set(const Labels& labels, const std::string& extra_name = {}, const std::string& extra_value = {}) {
  std::string out;
  for (const auto& [name, value] : labels) out += (out.empty() ? "" : ",") + name + "=\"" + escape(value, true) + "\"";
  if (!extra_name.empty()) out += (out.empty() ? "" : ",") + extra_name + "=\"" + extra_value + "\"";
  return out.empty() ? "" : "{" + out + "}";
}

const char* type_name(Type type) {
  switch (type) {
    case Type::counter: return "counter";
    case Type::gauge: return "gauge";
    case Type::histogram: return "histogram";
  }
  return "untyped";
}

}  // namespace

void Registry::declare(const std::string& name, Type type, std::string help, std::vector<double> buckets) {
  if (!valid_name(name)) throw std::invalid_argument("metric name '" + name + "' is not valid in Prometheus");
  if (type == Type::counter && !name.ends_with("_total")) {
    throw std::invalid_argument("counter '" + name + "' must end in _total");
  }
  if (help.empty()) throw std::invalid_argument("metric '" + name + "' needs a help text");
  if (type == Type::histogram && (buckets.empty() || !std::is_sorted(buckets.begin(), buckets.end()))) {
    throw std::invalid_argument("histogram '" + name + "' needs ascending buckets");
  }
  const std::lock_guard lock(mutex_);
  if (families_.contains(name)) throw std::invalid_argument("metric '" + name + "' declared twice");
  families_.emplace(name, Family{type, std::move(help), std::move(buckets), {}});
}

Registry::Family& Registry::family(std::string_view name, Type type) {
  const auto found = families_.find(name);
  if (found == families_.end()) throw std::logic_error("metric '" + std::string(name) + "' was never declared");
  if (found->second.type != type)
    throw std::logic_error("metric '" + std::string(name) + "' is not a " + type_name(type));
  return found->second;
}

void Registry::add(std::string_view name, const Labels& labels, double amount) {
  if (!(amount >= 0)) throw std::logic_error("counter '" + std::string(name) + "' cannot go down");
  const std::lock_guard lock(mutex_);
  family(name, Type::counter).series[labels].value += amount;
}

void Registry::set(std::string_view name, const Labels& labels, double value) {
  const std::lock_guard lock(mutex_);
  family(name, Type::gauge).series[labels].value = value;
}

void Registry::adjust(std::string_view name, const Labels& labels, double delta) {
  const std::lock_guard lock(mutex_);
  family(name, Type::gauge).series[labels].value += delta;
}

void Registry::observe(std::string_view name, const Labels& labels, double value) {
  const std::lock_guard lock(mutex_);
  Family& f = family(name, Type::histogram);
  Series& s = f.series[labels];
  s.counts.resize(f.buckets.size());
  const auto bucket = std::lower_bound(f.buckets.begin(), f.buckets.end(), value);  // first le >= value
  if (!std::isnan(value) && bucket != f.buckets.end()) ++s.counts[static_cast<std::size_t>(bucket - f.buckets.begin())];
  s.value += value;
  ++s.count;
}

std::string Registry::render() const {
  std::string out;
  const std::lock_guard lock(mutex_);
  for (const auto& [name, f] : families_) {
    out += "# HELP " + name + " " + escape(f.help, false) + "\n";
    out += "# TYPE " + name + " " + type_name(f.type) + "\n";
    for (const auto& [labels, s] : f.series) {
      if (f.type != Type::histogram) {
        out += name + label_set(labels) + " " + number(s.value) + "\n";
        continue;
      }
      std::uint64_t cumulative = 0;
      for (std::size_t b = 0; b < f.buckets.size(); ++b) {
        cumulative += b < s.counts.size() ? s.counts[b] : 0;
        out +=
            name + "_bucket" + label_set(labels, "le", number(f.buckets[b])) + " " + std::to_string(cumulative) + "\n";
      }
      out += name + "_bucket" + label_set(labels, "le", "+Inf") + " " + std::to_string(s.count) + "\n";
      out += name + "_sum" + label_set(labels) + " " + number(s.value) + "\n";
      out += name + "_count" + label_set(labels) + " " + std::to_string(s.count) + "\n";
    }
  }
  return out;
}

}  // namespace baton::metrics
