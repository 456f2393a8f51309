// Table look-ups of the two-class dynamic programming in its three versions, beside the
// paper's Tables 2-4 (the SNF paper, Section 6.3: c_s = 2, c_f = 1,
// T(f, s) for f, s <= 150).
//
//   reduction_dp [--quick] > reduction_dp.csv      (or bench/reduction.sh)
//
// CSV rows, first column the kind:
//   cell,VARIANT,c_s,f,s,lookups,paper     look-ups spent on cell (f, s), for f and s on the
//                                           paper's grid 0, 10, ..., 150; paper = the same
//                                           cell of Table 2 (naive), 3 (binary) or 4 (pruned)
//   total,VARIANT,c_s,f,s,lookups,seconds  the whole table up to (f, s), and its time
// --quick skips the other ratios (c_s = 1.25, 1.5, 1.75, 3), which only print totals.
#include "coordinator/schedule/reduction/mcp_table.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <string>

namespace red = baton::schedule::reduction;

namespace {

// Tables 3 and 4 of the paper, rows s = 0, 10, ..., 150, columns f = 0, 10, ..., 150.
// Table 2 is f * s / 2 in every cell.
using PaperTable = std::array<std::array<int, 16>, 16>;
constexpr PaperTable kTable3{{
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 10, 16, 36, 46, 52, 59, 89, 134, 179, 224, 221, 226, 233, 238, 243},
    {0, 15, 19, 25, 32, 62, 74, 116, 85, 87, 90, 102, 110, 132, 181, 236},
    {0, 14, 31, 34, 50, 46, 45, 49, 58, 68, 83, 89, 120, 140, 173, 219},
    {0, 18, 28, 28, 32, 44, 51, 60, 67, 99, 116, 137, 146, 195, 232, 176},
    {0, 15, 49, 58, 57, 63, 62, 72, 104, 131, 156, 179, 142, 129, 124, 129},
    {0, 26, 23, 28, 58, 99, 65, 75, 96, 89, 87, 91, 86, 91, 98, 102},
    {0, 16, 37, 37, 41, 45, 49, 54, 60, 67, 71, 77, 83, 92, 97, 107},
    {0, 15, 39, 54, 50, 57, 54, 59, 68, 75, 81, 85, 99, 101, 111, 102},
    {0, 18, 26, 62, 68, 83, 75, 71, 81, 85, 97, 103, 105, 103, 107, 157},
    {0, 16, 34, 35, 81, 105, 105, 106, 103, 113, 116, 126, 123, 95, 148, 179},
    {0, 16, 38, 31, 39, 57, 99, 171, 174, 164, 174, 158, 125, 96, 149, 180},
    {0, 29, 53, 40, 42, 48, 54, 79, 114, 151, 185, 168, 130, 101, 154, 210},
    {0, 28, 30, 68, 59, 57, 58, 61, 66, 75, 80, 85, 90, 95, 100, 105},
    {0, 19, 28, 62, 74, 70, 76, 70, 75, 75, 80, 85, 95, 100, 105, 105},
    {0, 17, 35, 45, 93, 79, 83, 90, 89, 97, 97, 99, 98, 103, 108, 117},
}};
constexpr PaperTable kTable4{{
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 9, 8, 25, 38, 39, 41, 59, 115, 160, 205, 202, 207, 213, 218, 223},
    {0, 14, 18, 19, 20, 41, 59, 83, 81, 81, 77, 85, 89, 104, 154, 199},
    {0, 15, 31, 42, 44, 36, 33, 30, 34, 33, 39, 64, 109, 142, 193, 257},
    {0, 21, 27, 31, 30, 37, 43, 48, 47, 53, 85, 119, 145, 182, 201, 197},
    {0, 13, 39, 62, 58, 55, 65, 68, 71, 93, 123, 134, 126, 122, 121, 125},
    {0, 19, 26, 44, 59, 96, 87, 80, 79, 70, 64, 60, 57, 58, 62, 61},
    {0, 17, 39, 37, 50, 59, 67, 66, 62, 59, 55, 55, 58, 59, 61, 70},
    {0, 14, 36, 59, 54, 62, 68, 72, 74, 71, 75, 83, 89, 84, 94, 95},
    {0, 21, 29, 59, 80, 88, 90, 83, 84, 92, 93, 97, 94, 108, 117, 126},
    {0, 17, 33, 48, 75, 103, 123, 110, 116, 118, 110, 110, 136, 145, 146, 141},
    {0, 15, 47, 35, 59, 74, 102, 169, 159, 153, 169, 157, 170, 178, 166, 166},
    {0, 20, 45, 56, 47, 73, 88, 100, 119, 141, 192, 190, 176, 170, 174, 184},
    {0, 22, 34, 66, 56, 60, 77, 87, 97, 111, 121, 145, 151, 153, 142, 134},
    {0, 18, 28, 60, 76, 69, 74, 86, 97, 101, 111, 122, 134, 139, 132, 120},
    {0, 19, 33, 50, 96, 94, 91, 89, 85, 105, 112, 119, 122, 125, 122, 120},
}};

constexpr std::array<std::pair<red::DpVariant, const char*>, 3> kVariants{{
    {red::DpVariant::naive, "naive"},
    {red::DpVariant::binary_search, "binary"},
    {red::DpVariant::pruned, "pruned"},
}};

int paper_value(red::DpVariant variant, std::size_t f, std::size_t s) {
  switch (variant) {
    case red::DpVariant::naive: return static_cast<int>(f * s / 2);
    case red::DpVariant::binary_search: return kTable3[s / 10][f / 10];
    case red::DpVariant::pruned: return kTable4[s / 10][f / 10];
  }
  return -1;
}

void run(double slow_time, std::size_t size, bool print_cells) {
  for (const auto& [variant, name] : kVariants) {
    const auto start = std::chrono::steady_clock::now();
    const red::McpTable table = red::fill_mcp_table(
        {.max_fast = size, .max_slow = size, .fast_time = 1, .slow_time = slow_time, .variant = variant});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (print_cells) {
      for (std::size_t f = 0; f <= size; f += 10) {
        for (std::size_t s = 0; s <= size; s += 10) {
          std::printf("cell,%s,%g,%zu,%zu,%llu,%d\n", name, slow_time, f, s,
                      static_cast<unsigned long long>(table.cell(f, s).lookups), paper_value(variant, f, s));
        }
      }
    }
    std::printf("total,%s,%g,%zu,%zu,%llu,%.4f\n", name, slow_time, size, size,
                static_cast<unsigned long long>(table.total_lookups()), seconds);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--quick") {
      quick = true;
    } else {
      std::fprintf(stderr, "usage: reduction_dp [--quick]\n");
      return 2;
    }
  }
  std::printf("kind,variant,c_s,f,s,lookups,paper_or_seconds\n");
  run(2.0, 150, true);
  if (!quick) {
    for (double slow_time : {1.25, 1.5, 1.75, 3.0}) run(slow_time, 150, false);
  }
  return 0;
}
