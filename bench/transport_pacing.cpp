// Pacing accuracy on loopback: one paced TCP flow per rate, from 1 MB/s up to the unpaced
// maximum measured in the same run; the receiver's byte count over every one-second window
// (sliding, one window per arriving chunk) is compared with the rate. Target: ±2 %.
//
//   build/ci/bench/transport_pacing [--quick] [--seconds S] [--transport tcp]
//
// Prints JSON lines: {"bench":"pacing","rate":1000000,"windows":N,"min":...,"max":...,
// "worst_error":0.004,"within_2pct":true} and first {"bench":"pacing_unpaced","bytes_per_s":...}.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/transport_common.h"

namespace {

struct WindowStats {
  std::size_t windows = 0;
  double min_rate = 0, max_rate = 0;
};

// Every one-second window that starts at a chunk arrival (after the first `skip` seconds,
// which include the initial burst) and ends before the last arrival.
WindowStats one_second_windows(const std::vector<baton::bench::Arrival>& arrivals, double skip) {
  using clock = std::chrono::steady_clock;
  WindowStats stats{.windows = 0, .min_rate = 1e300, .max_rate = 0};
  if (arrivals.empty()) return stats;
  const auto origin =
      arrivals.front().at + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(skip));
  std::vector<clock::time_point> at;
  std::vector<std::uint64_t> cumulative;
  std::uint64_t total = 0;
  for (const auto& a : arrivals) {
    total += a.bytes;
    at.push_back(a.at);
    cumulative.push_back(total);
  }
  const auto second = std::chrono::seconds(1);
  std::size_t j = 0;
  for (std::size_t i = 0; i < at.size(); ++i) {
    if (at[i] < origin) continue;
    if (at[i] + second > at.back()) break;
    while (j < at.size() && at[j] <= at[i] + second) ++j;
    // Bytes that arrived in (at[i], at[i] + 1 s].
    const double bytes = static_cast<double>(cumulative[j - 1] - cumulative[i]);
    stats.min_rate = std::min(stats.min_rate, bytes);
    stats.max_rate = std::max(stats.max_rate, bytes);
    ++stats.windows;
  }
  return stats;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Pacing accuracy of a paced flow over one-second windows"};
  bool quick = false;
  double seconds = 0;
  std::string transport = "tcp";
  app.add_flag("--quick", quick, "fewer rates, shorter runs");
  app.add_option("--seconds", seconds, "length of each paced run (default 4, 2.5 with --quick)");
  app.add_option("--transport", transport, "tcp or fabric/<provider>");
  CLI11_PARSE(app, argc, argv);
  if (seconds <= 0) seconds = quick ? 2.5 : 4.0;

  baton::bench::FlowRunOptions unpaced;
  unpaced.transport = transport;
  unpaced.bytes_per_flow = quick ? (512ULL << 20) : (2ULL << 30);
  unpaced.context.pool = {.buffer_count = 64, .buffer_size = 1 << 20};
  const auto top = baton::bench::run_flows(unpaced);
  if (!top.ok) {
    std::cout << R"({"bench":"pacing_unpaced","error":)" << baton::bench::json_string(top.error) << "}\n";
    return 1;
  }
  const double max_rate = static_cast<double>(top.bytes) / top.seconds;
  std::cout << R"({"bench":"pacing_unpaced","transport":)" << baton::bench::json_string(transport)
            << R"(,"bytes_per_s":)" << max_rate << "}\n";

  std::vector<double> rates = quick ? std::vector<double>{1e6, 100e6} : std::vector<double>{1e6, 10e6, 100e6, 1e9};
  rates.erase(std::remove_if(rates.begin(), rates.end(), [&](double r) { return r > 0.8 * max_rate; }), rates.end());
  rates.push_back(std::floor(0.8 * max_rate / 1e6) * 1e6);  // near the unpaced maximum
  for (const double rate : rates) {
    baton::bench::FlowRunOptions paced = unpaced;
    paced.rate_per_flow = static_cast<std::uint64_t>(rate);
    paced.bytes_per_flow = static_cast<std::uint64_t>(rate * seconds);
    paced.record_arrivals = true;
    const auto run = baton::bench::run_flows(paced);
    if (!run.ok) {
      std::cout << R"({"bench":"pacing","rate":)" << rate << R"(,"error":)" << baton::bench::json_string(run.error)
                << "}\n";
      continue;
    }
    const auto stats = one_second_windows(run.arrivals[0], 0.5);
    const double worst = std::max(std::abs(stats.min_rate - rate), std::abs(stats.max_rate - rate)) / rate;
    std::cout << R"({"bench":"pacing","transport":)" << baton::bench::json_string(transport) << R"(,"rate":)" << rate
              << R"(,"windows":)" << stats.windows << R"(,"min":)" << stats.min_rate << R"(,"max":)" << stats.max_rate
              << R"(,"worst_error":)" << worst << R"(,"within_2pct":)"
              << (stats.windows > 0 && worst <= 0.02 ? "true" : "false") << R"(,"average":)"
              << static_cast<double>(run.bytes) / run.seconds << "}\n";
    std::cout.flush();
  }
  return 0;
}
