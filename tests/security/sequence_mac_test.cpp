// Sealing a session's messages: the MAC depends on the message, the key and its place in
// the sequence, so an altered, replayed, reordered or reflected message fails its check.
#include "security/sequence_mac.h"

#include <boost/test/unit_test.hpp>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <string>

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

// Each seal, message after message (one context started over each time), is what
// OpenSSL's one-shot HMAC-SHA256 gives for the message's 8-byte big-endian number and bytes.
BOOST_AUTO_TEST_CASE(each_seal_is_hmac_sha256_of_the_number_and_the_message) {
  const std::string key = "k-initiator-traffic-0123456789abc";
  bs::SequenceMac sender(key);
  const std::string messages[] = {"plan", "", "release step 1", std::string(1000, 'x'), "release step 1"};
  for (std::uint64_t number = 0; number < std::size(messages); ++number) {
    std::string input(8, '\0');
    for (int i = 0; i < 8; ++i) input[static_cast<std::size_t>(i)] = static_cast<char>(number >> (56 - 8 * i));
    input += messages[number];
    unsigned char expected[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    BOOST_TEST_REQUIRE(HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
                            reinterpret_cast<const unsigned char*>(input.data()), input.size(), expected,
                            &length) != nullptr);
    BOOST_TEST_REQUIRE(length == 32u);
    BOOST_TEST(
        bs::view(sender.next(messages[number])) == std::string_view(reinterpret_cast<const char*>(expected), length),
        "message " << number);
  }
}

BOOST_AUTO_TEST_SUITE_END()
