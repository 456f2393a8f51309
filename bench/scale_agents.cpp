// Embedded agents for the scale benchmark (bench/scale.py; docs/runtime.md, "Scale"): of N
// nodes, n0 ... n{N/2-1} send and n{N/2} ... n{N-1} receive. Each sender holds a region "out"
// of --blocks blocks of --block-bytes, each receiver a region "in" as large. The job of S
// blocks (written by --write-job) sends sender i's block j to receiver (i + j) mod N/2, at
// block j of its "in": S rounds of a perfect matching, so a plan at k = N/2 has S steps of
// N/2 flows each.
//
//   build/release/bench/scale_agents --agents 64 --coordinator 127.0.0.1:7071
//       --secret-file secret --blocks 40 --write-job 10:job-10.json --write-job 40:job-40.json
//   (one command line)
//
// --host-first F --host-count C: this process hosts nodes nF ... n{F+C-1} only (one process
// cannot hold the sockets of 1024 agents under a 20 000 open-file limit; bench/scale.py
// starts several). --loops K runs its agents on K shared event loops, a thread each, in turn
// (baton::EmbeddedLoop); 0, the default, gives every agent a thread of its own. Prints {"event":"ready",...} once each of its agents registered, then
// reads commands on stdin:
//   verify JOB S   each receiver this process hosts is done with JOB and its first S blocks
//                  hold what the senders had (then "in" is zeroed for the next job); prints
//                  {"event":"verified","job":"JOB","ok":true|false,"bad_blocks":n}
//   quit           stops the agents (as SIGTERM stops the daemon) and exits
#include "agent/embedded.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace {

using Clock = std::chrono::steady_clock;

struct Shape {
  std::size_t agents = 16;
  std::size_t blocks = 10;
  std::size_t block_bytes = 1024;
  std::size_t senders() const { return agents / 2; }
  std::string node(std::size_t i) const { return "n" + std::to_string(i); }
  // The receiver (0-based among receivers) of sender i's block j.
  std::size_t receiver_of(std::size_t i, std::size_t j) const { return (i + j) % senders(); }
  // The sender of receiver r's block j.
  std::size_t sender_of(std::size_t r, std::size_t j) const { return (r + senders() - j % senders()) % senders(); }
};

// The byte at `offset` of sender i's block j: differs between senders, blocks and offsets.
std::byte pattern(std::size_t i, std::size_t j, std::size_t offset) {
  std::uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ (j + 1) * 0xC2B2AE3D27D4EB4Full ^ (offset / 8 + 1);
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  return static_cast<std::byte>((x >> (8 * (offset % 8))) & 0xff);
}

nlohmann::ordered_json job(const Shape& shape, std::size_t steps, double rate) {
  nlohmann::ordered_json senders = nlohmann::json::array(), receivers = nlohmann::json::array();
  for (std::size_t i = 0; i < shape.senders(); ++i) {
    senders.push_back(shape.node(i));
    receivers.push_back(shape.node(shape.senders() + i));
  }
  nlohmann::ordered_json runs = nlohmann::json::array();
  for (std::size_t i = 0; i < shape.senders(); ++i) {
    for (std::size_t j = 0; j < steps; ++j) {
      const std::uint64_t at = j * shape.block_bytes;
      runs.push_back({{"src_node", shape.node(i)},
                      {"src_file", "out"},
                      {"src_offset", at},
                      {"length", shape.block_bytes},
                      {"dst_node", shape.node(shape.senders() + shape.receiver_of(i, j))},
                      {"dst_file", "in"},
                      {"dst_offset", at}});
    }
  }
  // k = N/2 (the backbone carries every node at once): each round is one step.
  return {{"senders", senders},
          {"receivers", receivers},
          {"platform",
           {{"sender_rate", rate},
            {"receiver_rate", rate},
            {"backbone_rate", rate * static_cast<double>(shape.senders())},
            {"step_startup", 0.001}}},
          {"transfers", runs}};
}

// Lets this process hold every agent's sockets: about 4 + S per agent (its io_context's,
// its control session, its data listener, its kept data connections). Root may raise the
// hard limit too.
void raise_open_file_limit(std::size_t wanted) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= wanted) return;
  const rlimit more{.rlim_cur = wanted, .rlim_max = std::max<rlim_t>(wanted, limit.rlim_max)};
  if (::setrlimit(RLIMIT_NOFILE, &more) == 0) return;
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
}

}  // namespace

int main(int argc, char** argv) {
  Shape shape;
  std::string coordinator, secret_file;
  double rate = 1e9;
  std::vector<std::string> job_files;
  CLI::App app{"Embedded agents for the scale benchmark (bench/scale.py)"};
  app.add_option("--agents", shape.agents, "agents, half sending and half receiving")->check(CLI::Range(2, 8192));
  app.add_option("--blocks", shape.blocks, "blocks each sender holds (the most steps a job may have)")
      ->check(CLI::Range(1, 4096));
  app.add_option("--block-bytes", shape.block_bytes, "bytes of a block (one flow of a step)")
      ->check(CLI::Range(1, 1 << 24));
  app.add_option("--coordinator", coordinator, "the coordinator's agent listener, host:port")->required();
  app.add_option("--secret-file", secret_file, "the cluster secret")->required()->check(CLI::ExistingFile);
  app.add_option("--rate", rate, "bytes/s each agent declares")->check(CLI::PositiveNumber);
  std::size_t host_first = 0, host_count = 0;
  app.add_option("--host-first", host_first, "the first node this process hosts (default 0)");
  app.add_option("--host-count", host_count, "how many nodes it hosts (default all from --host-first)");
  std::size_t loop_count = 0;
  app.add_option("--loops", loop_count, "shared event loops the agents run on (0: a thread per agent)")
      ->check(CLI::Range(0, 1024));
  app.add_option("--write-job", job_files, "S:FILE writes the job of S steps to FILE (repeatable)");
  CLI11_PARSE(app, argc, argv);
  if (shape.agents % 2 != 0) {
    std::cerr << "scale_agents: --agents must be even (half send, half receive)\n";
    return 2;
  }
  for (const std::string& spec : job_files) {
    const std::size_t colon = spec.find(':');
    std::size_t steps = 0;
    try {
      steps = colon == std::string::npos ? 0 : std::stoul(spec.substr(0, colon));
    } catch (const std::exception&) {
    }
    if (steps == 0 || steps > shape.blocks || steps > shape.senders()) {
      std::cerr << "scale_agents: --write-job " << spec << ": want S:FILE with 1 <= S <= --blocks and S <= agents/2\n";
      return 2;
    }
    std::ofstream(spec.substr(colon + 1)) << job(shape, steps, rate).dump() << "\n";
  }
  if (host_first >= shape.agents) {
    std::cerr << "scale_agents: --host-first " << host_first << ": there are only " << shape.agents << " nodes\n";
    return 2;
  }
  const std::size_t host_end = std::min(shape.agents, host_first + (host_count == 0 ? shape.agents : host_count));
  std::string secret;
  std::getline(std::ifstream(secret_file), secret);
  raise_open_file_limit((host_end - host_first) * (8 + 2 * shape.blocks) + 1024);

  // The nodes this process hosts: n{host_first} ... n{host_end - 1}, each with its region.
  const std::size_t region = shape.blocks * shape.block_bytes;
  std::map<std::size_t, std::vector<std::byte>> regions;
  for (std::size_t n = host_first; n < host_end; ++n) {
    std::vector<std::byte>& bytes = regions.emplace(n, std::vector<std::byte>(region)).first->second;
    if (n >= shape.senders()) continue;
    for (std::size_t at = 0; at < region; ++at) bytes[at] = pattern(n, at / shape.block_bytes, at % shape.block_bytes);
  }
  const auto started = Clock::now();
  std::map<std::size_t, std::unique_ptr<baton::EmbeddedAgent>> agents;
  std::vector<std::shared_ptr<baton::EmbeddedLoop>> loops;
  for (std::size_t i = 0; i < loop_count; ++i) loops.push_back(std::make_shared<baton::EmbeddedLoop>());
  baton::transport::TransportConfig transport;
  transport.context.pool = {.buffer_count = 4, .buffer_size = std::max<std::size_t>(16384, shape.block_bytes + 4096)};
  for (auto& [n, bytes] : regions) {
    auto agent = std::make_unique<baton::EmbeddedAgent>(
        baton::EmbeddedOptions{.node_id = shape.node(n),
                               .coordinator = coordinator,
                               .secret = secret,
                               .rate = rate,
                               .transport = transport,
                               .loop = loops.empty() ? nullptr : loops[n % loops.size()]});
    agent->register_region(n < shape.senders() ? "out" : "in", bytes);
    agents.emplace(n, std::move(agent));
  }
  for (auto& [n, agent] : agents) {
    if (!agent->wait_registered(std::chrono::minutes(2))) {
      std::cerr << "scale_agents: " << shape.node(n) << " did not register within 2 minutes\n";
      return 1;
    }
  }
  std::cout << nlohmann::json{{"event", "ready"},
                              {"agents", agents.size()},
                              {"seconds", std::chrono::duration<double>(Clock::now() - started).count()}}
                   .dump()
            << std::endl;

  for (std::string line; std::getline(std::cin, line);) {
    std::istringstream words(line);
    std::string command, id;
    std::size_t steps = 0;
    words >> command >> id >> steps;
    if (command == "quit") break;
    if (command != "verify" || id.empty() || steps == 0 || steps > shape.blocks) {
      std::cerr << "scale_agents: unknown command (want \"verify JOB S\" or \"quit\"): " << line << "\n";
      continue;
    }
    bool done = true;
    std::size_t bad = 0;
    for (auto& [n, agent] : agents) {
      if (n < shape.senders()) continue;
      done = agent->wait_job(id, std::chrono::minutes(1)) == "done" && done;
      std::vector<std::byte>& in = regions.at(n);
      const std::size_t r = n - shape.senders();
      for (std::size_t j = 0; j < steps; ++j) {
        const std::size_t i = shape.sender_of(r, j);
        for (std::size_t at = 0; at < shape.block_bytes; ++at) {
          if (in[j * shape.block_bytes + at] != pattern(i, j, at)) {
            ++bad;
            break;
          }
        }
      }
      std::fill(in.begin(), in.end(), std::byte{0});
    }
    std::cout
        << nlohmann::json{{"event", "verified"}, {"job", id}, {"ok", done && bad == 0}, {"bad_blocks", bad}}.dump()
        << std::endl;
  }
  agents.clear();
  return 0;
}
