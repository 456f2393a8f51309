#include "metrics/registry.h"

#include "error/error.h"

#include <prometheus/metric_family.h>
#include <prometheus/text_serializer.h>

#include <algorithm>
#include <cctype>

namespace baton::metrics {
namespace {

bool valid_name(const std::string& name) {
  if (name.empty()) return false;
  const auto first = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; };
  const auto rest = [&](char c) { return first(c) || std::isdigit(static_cast<unsigned char>(c)); };
  return first(name[0]) && std::all_of(name.begin() + 1, name.end(), rest);
}

// HELP escapes backslash and newline (the format's rule); prometheus-cpp 1.0 writes the
// help text as it is given, so it is given escaped.
std::string escape_help(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

prometheus::Labels labels_of(const Labels& labels) { return {labels.begin(), labels.end()}; }

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
  if (!valid_name(name)) throw error::InvalidInput("metric name '" + name + "' is not valid in Prometheus");
  if (type == Type::counter && !name.ends_with("_total")) {
    throw error::InvalidInput("counter '" + name + "' must end in _total");
  }
  if (help.empty()) throw error::InvalidInput("metric '" + name + "' needs a help text");
  if (type == Type::histogram && (buckets.empty() || !std::is_sorted(buckets.begin(), buckets.end()))) {
    throw error::InvalidInput("histogram '" + name + "' needs ascending buckets");
  }
  const std::lock_guard lock(mutex_);
  if (families_.contains(name)) throw error::InvalidInput("metric '" + name + "' declared twice");
  Family family{.type = type, .buckets = std::move(buckets)};
  const std::string text = escape_help(help);
  switch (type) {
    case Type::counter: family.counters = &prometheus::BuildCounter().Name(name).Help(text).Register(*registry_); break;
    case Type::gauge: family.gauges = &prometheus::BuildGauge().Name(name).Help(text).Register(*registry_); break;
    case Type::histogram:
      family.histograms = &prometheus::BuildHistogram().Name(name).Help(text).Register(*registry_);
      break;
  }
  families_.emplace(name, std::move(family));
}

const Registry::Family& Registry::family(std::string_view name, Type type) const {
  const std::lock_guard lock(mutex_);
  const auto found = families_.find(name);
  if (found == families_.end()) throw error::Bug("metric '" + std::string(name) + "' was never declared");
  if (found->second.type != type) throw error::Bug("metric '" + std::string(name) + "' is not a " + type_name(type));
  return found->second;  // never erased: the reference outlives the lock
}

void Registry::add(std::string_view name, const Labels& labels, double amount) {
  if (!(amount >= 0)) throw error::Bug("counter '" + std::string(name) + "' cannot go down");
  family(name, Type::counter).counters->Add(labels_of(labels)).Increment(amount);
}

void Registry::set(std::string_view name, const Labels& labels, double value) {
  family(name, Type::gauge).gauges->Add(labels_of(labels)).Set(value);
}

void Registry::adjust(std::string_view name, const Labels& labels, double delta) {
  family(name, Type::gauge).gauges->Add(labels_of(labels)).Increment(delta);
}

void Registry::remove(std::string_view name, const Labels& labels) {
  prometheus::Family<prometheus::Gauge>& gauges = *family(name, Type::gauge).gauges;
  const prometheus::Labels named = labels_of(labels);
  if (gauges.Has(named)) gauges.Remove(&gauges.Add(named));
}

void Registry::observe(std::string_view name, const Labels& labels, double value) {
  const Family& f = family(name, Type::histogram);
  f.histograms->Add(labels_of(labels), f.buckets).Observe(value);
}

std::string Registry::render() const {
  std::vector<prometheus::MetricFamily> families = registry_->Collect();
  // A stable order, for people and diffs: families by name, series by labels.
  std::sort(families.begin(), families.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  for (prometheus::MetricFamily& f : families) {
    std::sort(f.metric.begin(), f.metric.end(), [](const auto& a, const auto& b) { return a.label < b.label; });
  }
  return prometheus::TextSerializer().Serialize(families);
}

}  // namespace baton::metrics
