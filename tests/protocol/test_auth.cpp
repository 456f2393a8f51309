// The shared-secret handshake.
#include "protocol/auth.h"

#include <boost/test/unit_test.hpp>

namespace bp = baton::protocol;

BOOST_AUTO_TEST_SUITE(auth)

const std::string kSecret = "correct horse battery staple";

BOOST_AUTO_TEST_CASE(a_peer_with_the_secret_is_accepted) {
  const std::string coordinator_nonce = bp::make_nonce(), agent_nonce = bp::make_nonce();
  BOOST_TEST(coordinator_nonce != agent_nonce);
  const bp::ProofInput agent{"agent", "a0", coordinator_nonce, agent_nonce};
  const std::string mac = bp::prove(kSecret, agent);
  BOOST_TEST(mac.size() == 32u);
  BOOST_TEST(bp::verify(kSecret, agent, mac));
}

BOOST_AUTO_TEST_CASE(wrong_secret_replay_and_reflection_are_refused) {
  const std::string n1 = bp::make_nonce(), n2 = bp::make_nonce(), n3 = bp::make_nonce();
  const bp::ProofInput agent{"agent", "a0", n1, n2};
  const std::string mac = bp::prove(kSecret, agent);
  BOOST_TEST(!bp::verify("another secret of some length", agent, mac));
  // Replayed on a new connection: the verifier's nonce differs.
  BOOST_TEST(!bp::verify(kSecret, {"agent", "a0", n3, n2}, mac));
  // Reflected: the coordinator's own proof sent back as if from an agent.
  const std::string coordinator_mac = bp::prove(kSecret, {"coordinator", "coord", n2, n1});
  BOOST_TEST(!bp::verify(kSecret, {"agent", "coord", n2, n1}, coordinator_mac));
  // Another node's name.
  BOOST_TEST(!bp::verify(kSecret, {"agent", "a1", n1, n2}, mac));
  // Truncated or empty MACs.
  BOOST_TEST(!bp::verify(kSecret, agent, mac.substr(0, 16)));
  BOOST_TEST(!bp::verify(kSecret, agent, ""));
}

BOOST_AUTO_TEST_CASE(short_secrets_and_bad_nonces_are_refused) {
  const std::string n = bp::make_nonce();
  BOOST_CHECK_THROW(bp::prove("short", {"agent", "a0", n, n}), std::invalid_argument);
  BOOST_CHECK_THROW(bp::prove(kSecret, {"agent", "a0", "abc", n}), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
