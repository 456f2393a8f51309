// What sealing one message costs (security/sequence_mac.h: HMAC-SHA256 over the message's
// number and bytes, the seal every control message and data frame carries; docs/security.md,
// "What a seal costs"). For each --bytes size, --rounds rounds of --messages seals on one
// session's SequenceMac; one JSON line per size:
//   {"bench": "seal_cost", "bytes": 64, "messages": 200000, "rounds": 5,
//    "ns_per_seal": <median of the rounds>, "ns_per_seal_min", "ns_per_seal_max",
//    "checksum": <a sum over the seals' first bytes: equal for equal seals>}
//
//   cmake --build build/ci --target seal_cost
//   build/ci/bench/seal_cost --bytes 64,1024,65536 --messages 200000 --rounds 5
#include "bench/median.h"
#include "security/sequence_mac.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"What sealing one message costs (HMAC-SHA256 over its number and bytes)"};
  std::vector<std::size_t> sizes{64, 1024, 65536};
  std::size_t messages = 200'000;
  int rounds = 5;
  app.add_option("--bytes", sizes, "message sizes, comma-separated")->delimiter(',')->check(CLI::Range(1, 1 << 24));
  app.add_option("--messages", messages, "seals a round")->check(CLI::Range(1, 100'000'000));
  app.add_option("--rounds", rounds, "rounds (the median is reported)")->check(CLI::Range(1, 1000));
  CLI11_PARSE(app, argc, argv);

  baton::security::SequenceMac mac("k-seal-cost-traffic-key-0123456789");
  for (const std::size_t bytes : sizes) {
    const std::string message(bytes, 'm');
    std::vector<double> ns;
    unsigned sink = 0;  // every seal is read, so none is optimised away
    for (int round = 0; round < rounds; ++round) {
      const auto start = std::chrono::steady_clock::now();
      for (std::size_t i = 0; i < messages; ++i) sink += static_cast<unsigned char>(mac.next(message)[0]);
      const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
      ns.push_back(took.count() / static_cast<double>(messages));
    }
    std::cout << R"({"bench": "seal_cost", "bytes": )" << bytes << R"(, "messages": )" << messages << R"(, "rounds": )"
              << rounds << R"(, "ns_per_seal": )" << baton::bench::median(ns) << R"(, "ns_per_seal_min": )"
              << *std::min_element(ns.begin(), ns.end()) << R"(, "ns_per_seal_max": )"
              << *std::max_element(ns.begin(), ns.end()) << R"(, "checksum": )" << sink << "}\n";
  }
}
