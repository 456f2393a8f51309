// What a step does with the objects it names: one open per file per step however many
// chunks share it (a step of thousands of chunks must not run out of descriptors), and a
// receiver reports a step done only once each file it wrote is durable (synced once).
#include "agent/data_root.h"
#include "agent/file_storage.h"
#include "tests/agent/step_harness.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <asio/post.hpp>

#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <map>

#include <sys/resource.h>

using namespace baton::agent::test;
using baton::test::read_all;
using baton::test::TempDir;

namespace {

// Lowers this process's soft RLIMIT_NOFILE for the lifetime of the object.
struct DescriptorLimit {
  rlimit saved{};
  explicit DescriptorLimit(rlim_t soft) {
    BOOST_REQUIRE(::getrlimit(RLIMIT_NOFILE, &saved) == 0);
    rlimit lowered = saved;
    lowered.rlim_cur = std::min(soft, saved.rlim_max);
    BOOST_REQUIRE(::setrlimit(RLIMIT_NOFILE, &lowered) == 0);
  }
  ~DescriptorLimit() { ::setrlimit(RLIMIT_NOFILE, &saved); }
  DescriptorLimit(const DescriptorLimit&) = delete;
  DescriptorLimit& operator=(const DescriptorLimit&) = delete;
};

// Another storage, counting how often each end opens an object.
struct CountingStorage final : ba::Storage {
  explicit CountingStorage(ba::Storage& s) : inner(s) {}
  std::unique_ptr<bt::Source> source(const std::string& name) override {
    ++sources;
    return inner.source(name);
  }
  std::unique_ptr<bt::Sink> sink(const std::string& name) override {
    ++sinks;
    return inner.sink(name);
  }
  ba::ObjectStatus status(const std::string& name) override { return inner.status(name); }
  ba::Storage& inner;
  int sources = 0, sinks = 0;
};

// Memory regions whose sinks record, per region, writes, syncs and writes after a sync.
// A sync runs `during_sync` (on the runner's sync thread), then returns `sync_error`.
struct SyncRecorder final : ba::Storage {
  struct Counts {
    int writes = 0, syncs = 0, writes_after_sync = 0;
  };
  struct Recording final : bt::Sink {
    Recording(std::unique_ptr<bt::Sink> s, Counts& c, const SyncRecorder& r)
        : inner(std::move(s)), counts(c), recorder(r) {}
    std::error_code write(std::uint64_t offset, std::span<const std::byte> bytes) override {
      ++counts.writes;
      if (counts.syncs > 0) ++counts.writes_after_sync;
      return inner->write(offset, bytes);
    }
    std::error_code sync() override {
      if (recorder.during_sync) recorder.during_sync();
      ++counts.syncs;
      return recorder.sync_error;
    }
    std::unique_ptr<bt::Sink> inner;
    Counts& counts;
    const SyncRecorder& recorder;
  };
  explicit SyncRecorder(ba::MemoryStorage& m) : memory(m) {}
  std::unique_ptr<bt::Source> source(const std::string& name) override { return memory.source(name); }
  std::unique_ptr<bt::Sink> sink(const std::string& name) override {
    return std::make_unique<Recording>(memory.sink(name), counts[name], *this);
  }
  ba::ObjectStatus status(const std::string& name) override { return memory.status(name); }
  ba::MemoryStorage& memory;
  std::map<std::string, Counts> counts;  // entries made on the executor, before any sync
  std::error_code sync_error;
  std::function<void()> during_sync;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(step_files)

// The review's "Too many open files": 2048 chunks of one file in one step, with 256
// descriptors allowed. Each end opens the file once; every byte lands where planned.
BOOST_AUTO_TEST_CASE(thousands_of_chunks_of_one_file_share_one_descriptor) {
  constexpr std::uint64_t chunks = 2048, size = 512;
  TempDir sender_dir, receiver_dir;
  const auto bytes = pattern(chunks * size, 11);
  sender_dir.write("in", std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  ba::DataRoot sender_root(sender_dir.path), receiver_root(receiver_dir.path);
  ba::FileStorage sender_files(sender_root), receiver_files(receiver_root);
  CountingStorage sender_storage(sender_files), receiver_storage(receiver_files);
  TwoAgents t;
  auto& io = t.io;
  auto& a = t.a;
  auto& b = t.b;
  // Chunk i: in[i * 512, +512) -> out at the mirrored place, so order and offsets matter.
  std::vector<std::array<std::uint64_t, 5>> plan_chunks;
  for (std::uint64_t i = 0; i < chunks; ++i)
    plan_chunks.push_back({i, i * size, (chunks - 1 - i) * size, size, i * size});
  Pair plan = one_step(b.data->address(), 0, plan_chunks, plan_chunks);
  const DescriptorLimit limit(256);
  ba::StepRunner sender(*a.context, sender_storage, plan.sender, a.identity);
  ba::StepRunner& receiver = b.receiver(plan.receiver, receiver_storage);
  const Outcome o = run_step(io, sender, receiver, 60s);
  BOOST_TEST(o.sender.ok(), o.sender.error());
  BOOST_TEST(o.receiver.ok(), o.receiver.error());
  BOOST_TEST(o.receiver.digests_size() == static_cast<int>(chunks));
  BOOST_TEST(sender_storage.sources == 1);
  BOOST_TEST(receiver_storage.sinks == 1);
  const std::string out = read_all(receiver_dir.path / "out");
  BOOST_REQUIRE(out.size() == chunks * size);
  bool placed = true;
  for (std::uint64_t i = 0; i < chunks && placed; ++i)
    placed = std::equal(bytes.begin() + static_cast<std::ptrdiff_t>(i * size),
                        bytes.begin() + static_cast<std::ptrdiff_t>((i + 1) * size),
                        reinterpret_cast<const std::byte*>(out.data()) + (chunks - 1 - i) * size);
  BOOST_TEST(placed);
}

// Six chunks into two files: the step is reported after each file is synced exactly
// once, and nothing is written into a file after its sync.
BOOST_AUTO_TEST_CASE(a_step_is_reported_after_each_file_it_wrote_is_synced_once) {
  TwoAgents t;
  auto& io = t.io;
  auto& a = t.a;
  auto& b = t.b;
  auto in = pattern(60'000, 12);
  std::vector<std::byte> out(40'000), out2(20'000);
  a.storage.register_region("in", in);
  b.storage.register_region("out", out);
  b.storage.register_region("out2", out2);
  SyncRecorder recorder(b.storage);
  std::vector<std::array<std::uint64_t, 5>> chunks;
  for (std::uint64_t i = 0; i < 6; ++i) chunks.push_back({i, i * 10'000, (i % 4) * 10'000, 10'000, i * 10'000});
  Pair plan = one_step(b.data->address(), 0, chunks, chunks);
  for (bp::Plan* p : {&plan.sender, &plan.receiver}) {
    for (int c = 4; c < 6; ++c) p->mutable_steps(0)->mutable_flows(0)->mutable_chunks(c)->set_dst_file("out2");
  }
  ba::StepRunner sender(*a.context, a.storage, plan.sender, a.identity);
  ba::StepRunner& receiver = b.receiver(plan.receiver, recorder);
  const Outcome o = run_step(io, sender, receiver);
  BOOST_TEST(o.receiver.ok(), o.receiver.error());
  BOOST_TEST(recorder.counts.size() == 2u);
  for (const auto& [name, counts] : recorder.counts) {
    BOOST_TEST(counts.syncs == 1, name);
    BOOST_TEST(counts.writes > 0, name);
    BOOST_TEST(counts.writes_after_sync == 0, name);
  }
  BOOST_TEST(std::equal(in.begin(), in.begin() + 40'000, out.begin()));
  BOOST_TEST(std::equal(in.begin() + 40'000, in.end(), out2.begin()));
}

BOOST_AUTO_TEST_CASE(a_failed_sync_fails_the_step_naming_the_file) {
  TwoAgents t;
  auto& io = t.io;
  auto& a = t.a;
  auto& b = t.b;
  auto in = pattern(8192, 13);
  std::vector<std::byte> out(8192);
  a.storage.register_region("in", in);
  b.storage.register_region("out", out);
  SyncRecorder recorder(b.storage);
  recorder.sync_error = std::make_error_code(std::errc::io_error);
  Pair plan = one_step(b.data->address(), 0, {{0, 0, 0, 8192, 0}}, {{0, 0, 0, 8192, 0}});
  ba::StepRunner sender(*a.context, a.storage, plan.sender, a.identity);
  ba::StepRunner& receiver = b.receiver(plan.receiver, recorder);
  const Outcome o = run_step(io, sender, receiver);
  BOOST_TEST(o.sender.ok(), o.sender.error());
  BOOST_TEST(!o.receiver.ok());
  BOOST_TEST(o.receiver.error() == "step 0: cannot make out durable: " + recorder.sync_error.message());
}

// A slow sync (a large step on a slow disk) runs off the executor: heartbeats and other
// connections are served meanwhile, and the report still waits for it. The sync holds
// until a handler posted to the executor has run; a sync on the executor itself would
// never see it run (and gives up after 10 s so that the test fails instead of hanging).
BOOST_AUTO_TEST_CASE(the_executor_keeps_running_while_a_step_syncs) {
  TwoAgents t;
  auto& io = t.io;
  auto& a = t.a;
  auto& b = t.b;
  auto in = pattern(8192, 14);
  std::vector<std::byte> out(8192);
  a.storage.register_region("in", in);
  b.storage.register_region("out", out);
  SyncRecorder recorder(b.storage);
  std::promise<void> executor_ran;
  std::future<void> executor_has_run = executor_ran.get_future();
  bool receiver_reported = false, reported_during_sync = false, sync_saw_the_executor = false;
  recorder.during_sync = [&] {
    asio::post(io, [&] {
      reported_during_sync = receiver_reported;
      executor_ran.set_value();
    });
    sync_saw_the_executor = executor_has_run.wait_for(10s) == std::future_status::ready;
  };
  Pair plan = one_step(b.data->address(), 0, {{0, 0, 0, 8192, 0}}, {{0, 0, 0, 8192, 0}});
  ba::StepRunner sender(*a.context, a.storage, plan.sender, a.identity);
  ba::StepRunner& receiver = b.receiver(plan.receiver, recorder);
  bp::StepReport received;
  int done = 0;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        received = co_await receiver.run(0, std::chrono::seconds(30));
        receiver_reported = true;
        ++done;
      },
      asio::detached);
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        co_await sender.run(0, std::chrono::seconds(30));
        ++done;
      },
      asio::detached);
  const auto start = std::chrono::steady_clock::now();
  while (done < 2 && std::chrono::steady_clock::now() - start < 60s) io.run_one_for(100ms);
  BOOST_REQUIRE(done == 2);
  BOOST_TEST(received.ok(), received.error());
  BOOST_TEST(sync_saw_the_executor);
  BOOST_TEST(!reported_during_sync);
  BOOST_TEST(recorder.counts["out"].syncs == 1);
}

BOOST_AUTO_TEST_SUITE_END()
