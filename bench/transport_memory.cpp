// Peak memory while moving 4 GiB through a 64 MiB pool: each side's VmHWM after the
// transfer, against the target pool + 32 MiB. The sender and the receiver are separate
// processes (fork), as on two nodes, each with its own 64 MiB pool; the sender reads its
// bytes into pool buffers (the file path), the receiver verifies and drops them. Before the
// transfer each side touches its whole pool, so the number is an upper bound, not luck in
// which buffers happened to be used.
//
//   build/ci/bench/transport_memory [--quick] [--transport tcp] [--flows 16]
//
// Prints one line per side:
//   {"bench":"memory","role":"receiver","transport":"tcp","flows":16,"bytes":4294967296,
//    "pool":67108864,"vmhwm":...,"target":...,"under_target":true,"seconds":...}
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <iostream>
#include <vector>

#include <CLI/CLI.hpp>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>

#include "bench/transport_common.h"

namespace {

using namespace baton;

struct Setup {
  std::string transport;
  std::size_t flows;
  std::uint64_t bytes_per_flow;
  transport::ContextOptions context;
};

constexpr std::uint64_t range = 64ULL << 20;

class PatternSource final : public transport::Source {
 public:
  std::uint64_t size() const override { return range; }
  std::error_code read(std::uint64_t offset, std::span<std::byte> into) const override {
    for (std::size_t i = 0; i < into.size(); ++i) into[i] = static_cast<std::byte>(((offset + i) * 131) & 0xFF);
    return {};
  }
};

void touch_pool(transport::BufferPool& pool) {
  std::vector<transport::Buffer> all;
  while (auto buffer = pool.try_acquire()) all.push_back(std::move(*buffer));
  for (auto& buffer : all) std::memset(buffer.bytes().data(), 1, buffer.bytes().size());
}

void report(const Setup& setup, const char* role, const std::string& error, double seconds) {
  const std::uint64_t pool = setup.context.pool.buffer_count * setup.context.pool.buffer_size;
  const std::uint64_t peak = bench::peak_resident_bytes();
  const std::uint64_t target = pool + (32ULL << 20);
  std::cout << R"({"bench":"memory","role":")" << role << R"(","transport":)" << bench::json_string(setup.transport)
            << R"(,"flows":)" << setup.flows << R"(,"bytes":)" << setup.bytes_per_flow * setup.flows << R"(,"pool":)"
            << pool << R"(,"vmhwm":)" << peak << R"(,"target":)" << target << R"(,"under_target":)"
            << (peak < target ? "true" : "false") << R"(,"seconds":)" << seconds;
  if (!error.empty()) std::cout << R"(,"error":)" << bench::json_string(error);
  std::cout << "}" << std::endl;
}

int run_sender(const Setup& setup, int address_pipe) {
  std::string address;
  char c = 0;
  while (read(address_pipe, &c, 1) == 1 && c != '\n') address.push_back(c);
  asio::io_context io;
  auto opened = transport::open_context(io.get_executor(), bench::config_for(setup.transport, setup.context));
  if (opened.error) {
    report(setup, "sender", opened.detail, 0);
    return 1;
  }
  touch_pool(opened.value->pool());
  std::string error;
  const auto start = std::chrono::steady_clock::now();
  const PatternSource source;
  for (std::size_t i = 0; i < setup.flows; ++i) {
    asio::co_spawn(
        io,
        [&, i]() -> asio::awaitable<void> {
          auto connected = co_await opened.value->connect(address);
          if (connected.error) {
            error = connected.detail;
            co_return;
          }
          transport::SteadyPacer unpaced({}, nullptr, start);
          const transport::SendOptions send{.max_chunk = setup.context.pool.buffer_size - transport::frame_header_size,
                                            .frame_timeout = setup.context.frame_timeout};
          std::uint32_t step = 0;
          for (std::uint64_t done = 0; done < setup.bytes_per_flow; ++step) {
            const std::uint64_t length = std::min(range, setup.bytes_per_flow - done);
            const auto r =
                co_await transport::send_flow(*connected.value, {.job = i, .step = step, .offset = 0, .length = length},
                                              source, unpaced, opened.value->pool(), send);
            if (!r.ok()) {
              error = r.describe();
              co_return;
            }
            done += length;
          }
        },
        asio::detached);
  }
  io.run();
  report(setup, "sender", error, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return error.empty() ? 0 : 1;
}

int run_receiver(const Setup& setup, int address_pipe) {
  asio::io_context io;
  auto opened = transport::open_context(io.get_executor(), bench::config_for(setup.transport, setup.context));
  if (opened.error) {
    report(setup, "receiver", opened.detail, 0);
    return 1;
  }
  touch_pool(opened.value->pool());
  auto listening = opened.value->listen(opened.value->name() == "tcp" ? "127.0.0.1:0" : "");
  if (listening.error) {
    report(setup, "receiver", listening.detail, 0);
    return 1;
  }
  const std::string address = listening.value->address() + "\n";
  if (write(address_pipe, address.data(), address.size()) != static_cast<ssize_t>(address.size())) return 1;
  std::string error;
  std::vector<std::unique_ptr<transport::Connection>> connections;
  const auto start = std::chrono::steady_clock::now();
  transport::DiscardSink sink;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        for (std::size_t i = 0; i < setup.flows; ++i) {
          auto accepted = co_await listening.value->accept(std::chrono::seconds(30));
          if (accepted.error) {
            error = accepted.error.message();
            co_return;
          }
          connections.push_back(std::move(accepted.value));
          asio::co_spawn(
              io,
              [&, c = connections.back().get()]() -> asio::awaitable<void> {
                for (std::uint64_t done = 0; done < setup.bytes_per_flow;) {
                  const auto r = co_await transport::receive_flow(*c, sink, opened.value->pool(),
                                                                  {.expected = std::nullopt,
                                                                   .max_range = range,
                                                                   .frame_timeout = setup.context.frame_timeout,
                                                                   .begin_timeout = std::nullopt});
                  if (!r.ok()) {
                    error = r.describe();
                    co_return;
                  }
                  done += r.flow.length;
                }
              },
              asio::detached);
        }
      },
      asio::detached);
  io.run();
  report(setup, "receiver", error, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return error.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Peak memory (VmHWM) of each side of a 4 GiB transfer through a fixed pool"};
  bool quick = false;
  Setup setup{.transport = "tcp", .flows = 16, .bytes_per_flow = 0, .context = {}};
  app.add_flag("--quick", quick, "move 512 MiB instead of 4 GiB");
  app.add_option("--transport", setup.transport, "tcp or fabric/<provider>");
  app.add_option("--flows", setup.flows, "concurrent flows")->check(CLI::Range(1, 256));
  CLI11_PARSE(app, argc, argv);
  setup.bytes_per_flow = (quick ? (512ULL << 20) : (4ULL << 30)) / setup.flows;
  setup.context.pool = {.buffer_count = 64, .buffer_size = 1 << 20};

  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) return 1;
  std::cout.flush();
  const pid_t child = fork();
  if (child == 0) {
    close(pipe_ends[1]);
    _exit(run_sender(setup, pipe_ends[0]));
  }
  close(pipe_ends[0]);
  const int received = run_receiver(setup, pipe_ends[1]);
  close(pipe_ends[1]);
  int status = 0;
  waitpid(child, &status, 0);
  return received == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
