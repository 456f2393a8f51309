// The probe objects of calibration (agent/probe_storage.h): the pseudo-random source is
// SplitMix64's published stream and reads the same at any offset; a probe flow between two
// real step runners delivers exactly that stream, and into the discarding sink is verified
// like any flow; other names still reach the wrapped storage; the plan check knows which
// end each probe object may be.
#include "agent/probe_storage.h"
#include "error/error.h"
#include "error/refusal.h"
#include "tests/agent/step_harness.h"

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cstring>
#include <memory>

using namespace baton::agent::test;

namespace {

std::vector<std::byte> read_probe(ba::Storage& storage, std::uint64_t offset, std::size_t length) {
  std::vector<std::byte> out(length);
  BOOST_REQUIRE(!storage.source("probe:random")->read(offset, out));
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(probe_storage)

BOOST_AUTO_TEST_CASE(the_random_source_is_splitmix64_from_seed_zero) {
  static_assert(std::endian::native == std::endian::little);
  ba::MemoryStorage regions;
  ba::ProbeStorage storage(regions);
  // The first outputs of SplitMix64 seeded with 0, as its authors' reference code prints them.
  const std::uint64_t expected[] = {0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL, 0x06c45d188009454fULL};
  const auto bytes = read_probe(storage, 0, sizeof expected);
  BOOST_TEST(std::memcmp(bytes.data(), expected, sizeof expected) == 0);
  BOOST_TEST(storage.source("probe:random")->size() == ba::kProbeObjectBytes);
}

BOOST_AUTO_TEST_CASE(any_range_reads_as_the_same_bytes_of_the_stream) {
  ba::MemoryStorage regions;
  ba::ProbeStorage storage(regions);
  const auto whole = read_probe(storage, 1000, 4096);
  for (const auto& [from, length] : std::vector<std::pair<std::size_t, std::size_t>>{
           {0, 1}, {3, 5}, {7, 9}, {8, 8}, {13, 1000}, {4095, 1}, {1001, 3000}}) {
    const auto part = read_probe(storage, 1000 + from, length);
    BOOST_TEST(std::equal(part.begin(), part.end(), whole.begin() + static_cast<std::ptrdiff_t>(from)));
  }
  std::vector<std::byte> past(16);
  BOOST_TEST(static_cast<bool>(storage.source("probe:random")->read(ba::kProbeObjectBytes - 8, past)));
}

BOOST_AUTO_TEST_CASE(probe_names_are_reserved_and_other_names_reach_the_wrapped_storage) {
  ba::MemoryStorage regions;
  std::vector<std::byte> region(10);
  regions.register_region("x", region);
  ba::ProbeStorage storage(regions);
  BOOST_TEST(storage.source("x")->size() == 10u);
  BOOST_CHECK_NO_THROW(storage.sink("probe:discard"));
  BOOST_CHECK_THROW(storage.sink("probe:random"), baton::error::InvalidInput);
  BOOST_CHECK_THROW(storage.source("probe:discard"), baton::error::InvalidInput);
  BOOST_CHECK_THROW(storage.source("probe:zeros"), baton::error::InvalidInput);
  // An object query: the source is there and as long as kProbeObjectBytes, the sink and an
  // unknown probe name cannot be read, other names are the wrapped storage's.
  const ba::ObjectStatus random = storage.status("probe:random");
  BOOST_TEST(random.exists);
  BOOST_TEST(random.size == ba::kProbeObjectBytes);
  BOOST_TEST(!storage.status("probe:discard").exists);
  BOOST_TEST(storage.status("probe:discard").error.find("can only be written") != std::string::npos);
  BOOST_TEST(storage.status("probe:zeros").error.find("unknown probe object 'probe:zeros'") != std::string::npos);
  BOOST_TEST(storage.status("x").size == regions.status("x").size);
  BOOST_TEST(storage.status("x").exists == regions.status("x").exists);
}

// The probe flow of one step between two real step runners: `dst` is "probe:discard" or
// the name of one of b's regions.
Outcome probe_flow(TwoAgents& t, ba::Storage& a_storage, ba::Storage& b_storage, std::uint64_t src_offset,
                   std::uint64_t length, const std::string& dst) {
  Pair plan = one_step(t.b.data->address(), 0, {{0, src_offset, 0, length, 0}}, {{0, src_offset, 0, length, 0}});
  for (bp::Plan* p : {&plan.sender, &plan.receiver}) {
    bp::Chunk* c = p->mutable_steps(0)->mutable_flows(0)->mutable_chunks(0);
    c->set_src_file("probe:random");
    c->set_dst_file(dst);
  }
  ba::StepRunner sender(*t.a.context, a_storage, plan.sender, t.a.identity);
  return run_step(t.io, sender, t.b.receiver(plan.receiver, b_storage));
}

BOOST_AUTO_TEST_CASE(a_probe_flow_carries_the_stream_and_lands_in_the_discarding_sink) {
  TwoAgents t;
  ba::ProbeStorage a_storage(t.a.storage), b_storage(t.b.storage);
  const std::uint64_t length = 3'000'000, src_offset = 12'345;
  // Into a region first: the bytes that arrive are the stream's.
  std::vector<std::byte> landed(length);
  t.b.storage.register_region("landed", landed);
  const Outcome kept = probe_flow(t, a_storage, b_storage, src_offset, length, "landed");
  BOOST_TEST(kept.receiver.ok(), kept.receiver.error());
  BOOST_TEST((landed == read_probe(a_storage, src_offset, length)));
  // Then into the sink: verified like any flow, the same digest at both ends and as before.
  const Outcome dropped = probe_flow(t, a_storage, b_storage, src_offset, length, "probe:discard");
  BOOST_TEST(dropped.sender.ok(), dropped.sender.error());
  BOOST_TEST(dropped.receiver.ok(), dropped.receiver.error());
  BOOST_TEST(dropped.receiver.bytes() == length);
  BOOST_REQUIRE(dropped.receiver.digests_size() == 1);
  BOOST_REQUIRE(dropped.sender.sent_size() == 1);
  BOOST_TEST(dropped.sender.sent(0).xxh3() == dropped.receiver.digests(0).xxh3());
  BOOST_TEST(dropped.receiver.digests(0).xxh3() == kept.receiver.digests(0).xxh3());
}

BOOST_AUTO_TEST_CASE(the_plan_check_knows_which_end_each_probe_object_may_be) {
  const ba::PlanObjects files{
      .check_name = [](const std::string&) { return std::optional<baton::error::Refusal>(); },
      .source_size = [](const std::string&) -> std::uint64_t { return 100; },
      .destination_limit = [](const std::string&) -> std::uint64_t { return 100; },
  };
  const ba::PlanObjects objects = ba::with_probe_objects(files);
  const auto check = [&](const std::string& src, const std::string& dst, std::uint64_t length, bool send) {
    Pair p = one_step("127.0.0.1:1", 0, {{0, 0, 0, length, 0}}, {{0, 0, 0, length, 0}});
    bp::Plan& plan = send ? p.sender : p.receiver;
    bp::Chunk* c = plan.mutable_steps(0)->mutable_flows(0)->mutable_chunks(0);
    c->set_src_file(src);
    c->set_dst_file(dst);
    return ba::check_plan(plan, objects).value_or("").reason;  // "": accepted
  };
  // Far past any file: the probe source reaches 2^62 bytes, the sink has no end.
  BOOST_TEST(check("probe:random", "probe:discard", 1'000'000'000, true) == "");
  BOOST_TEST(check("probe:random", "probe:discard", 1'000'000'000, false) == "");
  BOOST_TEST(check("in", "out", 1000, true).find("outside in (100 bytes)") != std::string::npos);
  BOOST_TEST(check("probe:discard", "out", 10, true).find("probe:discard can only be written") != std::string::npos);
  BOOST_TEST(check("in", "probe:random", 10, false).find("probe:random can only be read") != std::string::npos);
  BOOST_TEST(check("probe:zeros", "out", 10, true).find("unknown probe object 'probe:zeros'") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
