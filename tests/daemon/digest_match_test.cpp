// The coordinator's end-to-end check of a step: receivers' digests against senders'.
#include "coordinator/daemon/digest_match.h"

#include <boost/test/unit_test.hpp>

namespace bc = baton::coordinator;
namespace bp = baton::protocol;

namespace {

void add(google::protobuf::RepeatedPtrField<bp::ChunkDigest>* to, std::uint64_t transfer, std::uint64_t offset,
         std::uint64_t length, std::uint64_t xxh3) {
  bp::ChunkDigest* d = to->Add();
  d->set_transfer(transfer);
  d->set_dst_offset(offset);
  d->set_length(length);
  d->set_xxh3(xxh3);
}

// s0 sends transfers 1 and 2 to r0 and r1.
std::map<std::string, bp::StepReport> step() {
  std::map<std::string, bp::StepReport> reports;
  add(reports["s0"].mutable_sent(), 1, 0, 4096, 0xAAAA);
  add(reports["s0"].mutable_sent(), 2, 4096, 100, 0xBBBB);
  add(reports["r0"].mutable_digests(), 1, 0, 4096, 0xAAAA);
  add(reports["r1"].mutable_digests(), 2, 4096, 100, 0xBBBB);
  return reports;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(digest_match)

BOOST_AUTO_TEST_CASE(reports_that_agree_pass) { BOOST_TEST(!bc::match_digests(step()).has_value()); }

BOOST_AUTO_TEST_CASE(a_receiver_holding_other_bytes_is_named_with_its_sender) {
  auto reports = step();
  reports["r1"].mutable_digests(0)->set_xxh3(0xEEEE);
  BOOST_TEST(bc::match_digests(reports).value_or("").reason ==
             "transfer 2 [4096, 4196): r1's digest differs from what s0 sent");
}

BOOST_AUTO_TEST_CASE(chunks_on_one_side_only_are_named) {
  auto reports = step();
  reports["r0"].clear_digests();
  add(reports["r0"].mutable_digests(), 7, 0, 10, 1);
  BOOST_TEST(bc::match_digests(reports).value_or("").reason ==
             "transfer 7 [0, 10) landed on r0 but no sender reports sending it; "
             "transfer 1 [0, 4096) sent by s0 but no receiver reports it");
}

BOOST_AUTO_TEST_SUITE_END()
