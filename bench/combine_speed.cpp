// The combine speeds an agent measures at start and reports when it registers
// (docs/collectives.md, "Measured"), one JSON object per dtype and op:
//   {"bench":"combine_speed","dtype":"f32","op":"sum","gb_per_s":...}
// and the time the whole measurement took: {"bench":"combine_speed_total","seconds":...}
//
//   build/ci/bench/combine_speed [--array-kib 1024] [--ms 4]
#include <chrono>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "combine/speed.h"

int main(int argc, char** argv) {
  std::size_t array_kib = 1024;
  int ms = 4;
  CLI::App app{"Combine speed per dtype and op, as an agent measures it at start"};
  app.add_option("--array-kib", array_kib, "bytes of each array, in KiB")->check(CLI::Range(4, 1 << 20));
  app.add_option("--ms", ms, "at most this many milliseconds per dtype and op")->check(CLI::Range(1, 10000));
  CLI11_PARSE(app, argc, argv);
  namespace bc = baton::combine;
  const auto start = std::chrono::steady_clock::now();
  const auto speeds = bc::measure_speeds(array_kib << 10, std::chrono::milliseconds(ms));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const bc::Speed& s : speeds) {
    std::printf("{\"bench\":\"combine_speed\",\"dtype\":\"%s\",\"op\":\"%s\",\"gb_per_s\":%.2f}\n",
                std::string(bc::name(s.dtype)).c_str(), std::string(bc::name(s.op)).c_str(), s.bytes_per_second / 1e9);
  }
  std::printf("{\"bench\":\"combine_speed_total\",\"seconds\":%.3f}\n", seconds);
  return 0;
}
