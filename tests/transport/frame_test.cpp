#include <boost/test/unit_test.hpp>

#include <cstring>
#include <string_view>

#include "transport/checksum.h"
#include "transport/errors.h"
#include "transport/frame.h"

using namespace baton::transport;

namespace {

FrameHeader sample() {
  return {.kind = FrameKind::data,
          .job = 0x0102030405060708ULL,
          .step = 0xA0B0C0D0,
          .length = 4096,
          .offset = 1ULL << 40,
          .range_end = (1ULL << 40) + 8192,
          .checksum = 0xDEADBEEFCAFEF00DULL};
}

std::uint64_t read_le(const HeaderBytes& bytes, std::size_t at, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) value |= static_cast<std::uint64_t>(bytes[at + i]) << (8 * i);
  return value;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(frame)

BOOST_AUTO_TEST_CASE(layout_matches_the_documented_offsets) {
  const HeaderBytes bytes = encode_header(sample());
  BOOST_TEST(std::memcmp(bytes.data(), "BATN", 4) == 0);
  BOOST_TEST(read_le(bytes, 4, 2) == 2u);
  BOOST_TEST(read_le(bytes, 6, 2) == 2u);
  BOOST_TEST(read_le(bytes, 8, 8) == 0x0102030405060708ULL);
  BOOST_TEST(read_le(bytes, 16, 4) == 0xA0B0C0D0u);
  BOOST_TEST(read_le(bytes, 20, 4) == 4096u);
  BOOST_TEST(read_le(bytes, 24, 8) == (1ULL << 40));
  BOOST_TEST(read_le(bytes, 32, 8) == (1ULL << 40) + 8192);
  BOOST_TEST(read_le(bytes, 40, 8) == 0xDEADBEEFCAFEF00DULL);
  BOOST_TEST(read_le(bytes, 48, 8) == xxh3_64(std::span<const std::byte>(bytes).first(48)));
}

BOOST_AUTO_TEST_CASE(round_trips_every_field) {
  FrameHeader out;
  BOOST_TEST(!decode_header(encode_header(sample()), out));
  const FrameHeader in = sample();
  BOOST_TEST((out.kind == in.kind));
  BOOST_TEST(out.job == in.job);
  BOOST_TEST(out.step == in.step);
  BOOST_TEST(out.length == in.length);
  BOOST_TEST(out.offset == in.offset);
  BOOST_TEST(out.range_end == in.range_end);
  BOOST_TEST(out.checksum == in.checksum);
}

BOOST_AUTO_TEST_CASE(every_single_bit_flip_is_caught) {
  const HeaderBytes good = encode_header(sample());
  for (std::size_t bit = 0; bit < frame_header_size * 8; ++bit) {
    HeaderBytes bad = good;
    bad[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
    FrameHeader out;
    const auto error = decode_header(bad, out);
    BOOST_TEST_REQUIRE(static_cast<bool>(error), "bit " << bit);
    const auto expected = bit < 32   ? errc::bad_magic
                          : bit < 48 ? errc::unsupported_version
                                     : errc::header_checksum_mismatch;
    BOOST_TEST_REQUIRE((error == expected), "bit " << bit << ": " << error.message());
  }
}

BOOST_AUTO_TEST_CASE(unknown_kind_with_a_valid_seal_is_unexpected) {
  HeaderBytes bytes = encode_header(sample());
  bytes[6] = std::byte{9};
  const auto seal = xxh3_64(std::span<const std::byte>(bytes).first(48));
  for (std::size_t i = 0; i < 8; ++i) bytes[48 + i] = static_cast<std::byte>((seal >> (8 * i)) & 0xFF);
  FrameHeader out;
  BOOST_TEST((decode_header(bytes, out) == errc::unexpected_frame));
}

BOOST_AUTO_TEST_CASE(errors_have_messages_and_a_category) {
  const std::error_code error = errc::payload_checksum_mismatch;
  BOOST_TEST(std::string(error.category().name()) == "baton.transport");
  BOOST_TEST(error.message().find("checksum") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(checksum)

BOOST_AUTO_TEST_CASE(matches_published_xxh3_values) {
  // XXH3_64bits("") with seed 0, as published by the xxHash project.
  BOOST_TEST(xxh3_64({}) == 0x2D06800538D394C2ULL);
}

BOOST_AUTO_TEST_CASE(streaming_equals_one_shot_for_any_split) {
  std::vector<std::byte> data(10'000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::byte>((i * 131 + 7) & 0xFF);
  const auto whole = xxh3_64(data);
  for (std::size_t split : {0u, 1u, 240u, 241u, 4096u, 9999u, 10000u}) {
    RangeChecksum sum;
    sum.update(std::span(data).first(split));
    sum.update(std::span(data).subspan(split));
    BOOST_TEST(sum.value() == whole, "split " << split);
  }
  data[5000] ^= std::byte{1};
  BOOST_TEST(xxh3_64(data) != whole);
}

BOOST_AUTO_TEST_SUITE_END()
