// What a step does with the objects it names: one open per file per step however many
// chunks share it (a step of thousands of chunks must not run out of descriptors).
#include "agent/data_root.h"
#include "agent/file_storage.h"
#include "tests/agent/step_harness.h"
#include "tests/agent/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <iterator>

#include <sys/resource.h>

using namespace baton::agent::test;

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
  ba::Storage& inner;
  int sources = 0, sinks = 0;
};

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

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
  auto& [io, a, b] = t;
  // Chunk i: in[i * 512, +512) -> out at the mirrored place, so order and offsets matter.
  std::vector<std::array<std::uint64_t, 5>> plan_chunks;
  for (std::uint64_t i = 0; i < chunks; ++i) plan_chunks.push_back({i, i * size, (chunks - 1 - i) * size, size, i * size});
  Pair plan = one_step(b.data->address(), 0, plan_chunks, plan_chunks);
  const DescriptorLimit limit(256);
  ba::StepOptions options;
  options.min_step_timeout = 60s;
  ba::StepRunner sender(*a.context, sender_storage, plan.sender, a.identity, options);
  ba::StepRunner receiver(*b.context, receiver_storage, plan.receiver, b.identity, options);
  b.data->set_runner(&receiver);
  const Outcome o = run_step(io, sender, receiver);
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

BOOST_AUTO_TEST_SUITE_END()
