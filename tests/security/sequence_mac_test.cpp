// Sealing a session's messages: the MAC depends on the message, the key and its place in
// the sequence, so an altered, replayed, reordered or reflected message fails its check.
#include "security/sequence_mac.h"

#include <boost/test/unit_test.hpp>

namespace bs = baton::security;

BOOST_AUTO_TEST_SUITE(sequence_mac)

BOOST_AUTO_TEST_CASE(sender_and_receiver_agree_message_by_message) {
  bs::SequenceMac sender("k-initiator-traffic-0123456789abc"), receiver("k-initiator-traffic-0123456789abc");
  for (const char* message : {"plan", "release", "release"}) {
    BOOST_TEST(bs::view(sender.next(message)) == bs::view(receiver.next(message)));
  }
  BOOST_TEST(sender.count() == 3u);
}

BOOST_AUTO_TEST_CASE(replayed_altered_and_reflected_messages_fail) {
  const std::string key = "k-initiator-traffic-0123456789abc";
  bs::SequenceMac sender(key), receiver(key);
  const bs::Mac first = sender.next("release step 1");
  BOOST_TEST(bs::view(receiver.next("release step 1")) == bs::view(first));
  // Replayed: the receiver now expects sequence number 1.
  BOOST_TEST(bs::view(receiver.next("release step 1")) != bs::view(first));
  // Altered.
  bs::SequenceMac fresh_sender(key), fresh_receiver(key);
  BOOST_TEST(bs::view(fresh_receiver.next("release step 2")) != bs::view(fresh_sender.next("release step 1")));
  // Another direction's key.
  bs::SequenceMac other_direction("k-responder-traffic-0123456789abc"), receiver2(key);
  BOOST_TEST(bs::view(receiver2.next("m")) != bs::view(other_direction.next("m")));
}

BOOST_AUTO_TEST_CASE(a_message_in_two_parts_is_sealed_as_its_concatenation) {
  bs::SequenceMac a("k-0123456789abcdef0123456789abcde"), b("k-0123456789abcdef0123456789abcde");
  BOOST_TEST(bs::view(a.next("header", "checksum")) == bs::view(b.next("headerchecksum")));
}

BOOST_AUTO_TEST_SUITE_END()
