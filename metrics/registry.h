// Metrics in Prometheus' text exposition format 0.0.4 (docs/metrics.md): counters, gauges
// and histograms, grouped in families declared once with their help text, rendered for
// an HTTP scrape. The registry, the families and the text serializer are Prometheus' C++
// client (Debian's prometheus-cpp-dev, core library); this class keeps Baton's rules on
// top (counters end in _total and only grow, one declaration per family) and a stable
// order (families by name, series by labels).
//
// Threading: every member function may be called from any thread: the daemons count on
// their event loop and render on their HTTP server's threads.
#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace baton::metrics {

// Label names and values, in the order they are written.
using Labels = std::vector<std::pair<std::string, std::string>>;

enum class Type { counter, gauge, histogram };

class Registry {
 public:
  // Declares a family. Throws error::InvalidInput for a name Prometheus would refuse,
  // an empty help text, a counter not ending in _total, a histogram without ascending
  // buckets, or a second declaration.
  void declare(const std::string& name, Type type, std::string help, std::vector<double> buckets = {});

  // Counters only grow: `amount` must be >= 0. Throws error::Bug for an undeclared
  // family or one of another type (a programming error, not bad input).
  void add(std::string_view name, const Labels& labels = {}, double amount = 1);
  void set(std::string_view name, const Labels& labels, double value);
  // A gauge moved by `delta` (flows starting and ending).
  void adjust(std::string_view name, const Labels& labels, double delta);
  void observe(std::string_view name, const Labels& labels, double value);
  // Drops a gauge's series (a job that ended), if it has one.
  void remove(std::string_view name, const Labels& labels);

  // The exposition: every family with its HELP and TYPE lines, series in label order.
  std::string render() const;

 private:
  struct Family {
    Type type;
    prometheus::Family<prometheus::Counter>* counters = nullptr;
    prometheus::Family<prometheus::Gauge>* gauges = nullptr;
    prometheus::Family<prometheus::Histogram>* histograms = nullptr;
    prometheus::Histogram::BucketBoundaries buckets;
  };
  // The family `name` of `type`; throws error::Bug for another.
  const Family& family(std::string_view name, Type type) const;

  mutable std::mutex mutex_;  // guards families_ (prometheus-cpp guards its own)
  std::map<std::string, Family, std::less<>> families_;
  std::unique_ptr<prometheus::Registry> registry_ = std::make_unique<prometheus::Registry>();
};

// The content type of render()'s text, for the HTTP answer.
inline constexpr const char* content_type = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace baton::metrics
