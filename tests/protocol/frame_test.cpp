// Frames: whatever way the bytes arrive, the same payloads come out; lengths are never
// trusted.
#include "protocol/frame.h"

#include <boost/test/unit_test.hpp>

#include <random>
#include <vector>

namespace bp = baton::protocol;

BOOST_AUTO_TEST_SUITE(frame)

BOOST_AUTO_TEST_CASE(payloads_survive_any_split_of_the_stream) {
  std::mt19937_64 rng(1);
  std::vector<std::string> payloads{"", "x", std::string(70000, 'a'), "\0\1\2\3"};
  for (int i = 0; i < 50; ++i) payloads.push_back(std::string(rng() % 3000, static_cast<char>('a' + i % 26)));
  std::string stream;
  for (const auto& p : payloads) bp::append_frame(stream, p);
  for (int trial = 0; trial < 20; ++trial) {
    bp::FrameDecoder decoder;
    std::vector<std::string> got;
    for (std::size_t pos = 0; pos < stream.size();) {
      const std::size_t n = std::min<std::size_t>(stream.size() - pos, 1 + rng() % 5000);
      decoder.feed(std::string_view(stream).substr(pos, n));
      pos += n;
      while (auto frame = decoder.next()) got.push_back(*frame);
    }
    BOOST_TEST(got == payloads);
    BOOST_TEST(decoder.pending() == 0u);
  }
}

BOOST_AUTO_TEST_CASE(oversized_frames_are_refused_before_allocation) {
  bp::FrameDecoder decoder(1024);
  const std::string header("\x7f\xff\xff\xff", 4);  // 2 GiB announced
  BOOST_CHECK_THROW(decoder.feed(header), bp::FrameError);
  std::string out;
  BOOST_CHECK_THROW(bp::append_frame(out, std::string(2000, 'x'), 1024), bp::FrameError);
}

BOOST_AUTO_TEST_CASE(a_truncated_frame_stays_pending) {
  std::string stream;
  bp::append_frame(stream, "hello world");
  bp::FrameDecoder decoder;
  decoder.feed(std::string_view(stream).substr(0, stream.size() - 3));
  BOOST_TEST(!decoder.next().has_value());
  BOOST_TEST(decoder.pending() == stream.size() - 3);
}

BOOST_AUTO_TEST_CASE(an_oversized_frame_after_a_good_one_is_refused) {
  std::string stream;
  bp::append_frame(stream, "ok");
  stream += std::string("\x00\x10\x00\x00", 4);  // 1 MiB announced, cap 1 KiB
  bp::FrameDecoder decoder(1024);
  BOOST_CHECK_THROW(
      {
        decoder.feed(stream);
        while (decoder.next()) {
        }
      },
      bp::FrameError);
}

BOOST_AUTO_TEST_SUITE_END()
