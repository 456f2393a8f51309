// HMAC-SHA256 against RFC 4231's published vectors, and the handshake's key schedule:
// both ends agree, and any change of secret, plane, role, node id or nonce changes every
// proof, so none is valid in another session, direction or plane.
#include "security/key_schedule.h"
#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <string>

namespace bs = baton::security;

namespace {

std::string hex(const bs::Mac& mac) {
  std::string out;
  char digits[3];
  for (std::uint8_t byte : mac) {
    std::snprintf(digits, sizeof digits, "%02x", byte);
    out += digits;
  }
  return out;
}

const std::string kSecret = "a cluster secret of ours";

}  // namespace

BOOST_AUTO_TEST_SUITE(key_schedule)

BOOST_AUTO_TEST_CASE(hmac_matches_rfc_4231) {
  // Test case 2: a short key.
  BOOST_TEST(hex(bs::hmac_sha256("Jefe", {"what do ya want ", "for nothing?"})) ==
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // Test case 6: a key longer than the block size.
  BOOST_TEST(
      hex(bs::hmac_sha256(std::string(131, '\xaa'), {"Test Using Larger Than Block-Size Key - Hash Key First"})) ==
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

BOOST_AUTO_TEST_CASE(both_ends_derive_the_same_keys_and_the_directions_differ) {
  const bs::Hello agent = bs::make_hello("agent", "a0");
  const bs::Hello coordinator = bs::make_hello("coordinator", "coord");
  const bs::SessionKeys one = bs::derive_session_keys(kSecret, "control", agent, coordinator);
  const bs::SessionKeys other = bs::derive_session_keys(kSecret, "control", agent, coordinator);
  BOOST_TEST(hex(one.initiator_finished) == hex(other.initiator_finished));
  BOOST_TEST(one.initiator_to_responder == other.initiator_to_responder);
  BOOST_TEST(hex(one.initiator_finished) != hex(one.responder_finished));
  BOOST_TEST(one.initiator_to_responder != one.responder_to_initiator);
  BOOST_TEST(one.initiator_to_responder.size() == 32u);
}

BOOST_AUTO_TEST_CASE(every_input_changes_the_proofs) {
  const bs::Hello agent = bs::make_hello("agent", "a0");
  const bs::Hello coordinator = bs::make_hello("coordinator", "coord");
  const std::string base = hex(bs::derive_session_keys(kSecret, "control", agent, coordinator).initiator_finished);
  const auto proof = [](std::string_view secret, std::string_view plane, const bs::Hello& i, const bs::Hello& r) {
    return hex(bs::derive_session_keys(secret, plane, i, r).initiator_finished);
  };
  BOOST_TEST(proof("another cluster secret", "control", agent, coordinator) != base);
  BOOST_TEST(proof(kSecret, "data", agent, coordinator) != base);
  bs::Hello changed = agent;
  changed.node_id = "a1";
  BOOST_TEST(proof(kSecret, "control", changed, coordinator) != base);
  changed = agent;
  changed.role = "sender";
  BOOST_TEST(proof(kSecret, "control", changed, coordinator) != base);
  changed = agent;
  changed.nonce[0] = static_cast<char>(changed.nonce[0] ^ 1);
  BOOST_TEST(proof(kSecret, "control", changed, coordinator) != base);
  changed = coordinator;
  changed.nonce[31] = static_cast<char>(changed.nonce[31] ^ 1);
  BOOST_TEST(proof(kSecret, "control", agent, changed) != base);
  // The two Hellos swapped (the reflection of a session): another transcript.
  BOOST_TEST(proof(kSecret, "control", coordinator, agent) != base);
  // Field boundaries are length-prefixed: moving a byte from one field to the next is
  // another transcript.
  const bs::Hello split_a{"agent", "a0x", agent.nonce}, split_b{"agentx", "a0", agent.nonce};
  BOOST_TEST(proof(kSecret, "control", split_a, coordinator) != proof(kSecret, "control", split_b, coordinator));
}

BOOST_AUTO_TEST_CASE(nonces_are_fresh) {
  BOOST_TEST(bs::make_hello("agent", "a").nonce != bs::make_hello("agent", "a").nonce);
  BOOST_TEST(bs::make_hello("agent", "a").nonce.size() == bs::kNonceBytes);
}

BOOST_AUTO_TEST_CASE(bad_inputs_are_refused_with_their_reason) {
  const bs::Hello agent = bs::make_hello("agent", "a0");
  const bs::Hello coordinator = bs::make_hello("coordinator", "coord");
  BOOST_CHECK_THROW(bs::derive_session_keys("short", "control", agent, coordinator), baton::error::InvalidInput);
  bs::Hello bad = agent;
  bad.nonce = "abc";
  BOOST_CHECK_THROW(bs::derive_session_keys(kSecret, "control", bad, coordinator), baton::error::InvalidInput);
  BOOST_TEST(bs::hello_problem(bad, "agent").value_or("").reason == "the nonce must be 32 bytes");
  bad = agent;
  bad.node_id.clear();
  BOOST_TEST(bs::hello_problem(bad, "agent").value_or("").reason == "the node id must be 1 to 256 bytes");
  bad.node_id = std::string(257, 'n');
  BOOST_TEST(bs::hello_problem(bad, "agent").value_or("").reason == "the node id must be 1 to 256 bytes");
  BOOST_TEST(bs::hello_problem(agent, "coordinator").value_or("").reason == "a coordinator was expected, not 'agent'");
  BOOST_TEST(!bs::hello_problem(agent, "agent").has_value());
}

BOOST_AUTO_TEST_SUITE_END()
