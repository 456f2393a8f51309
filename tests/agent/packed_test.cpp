// Packed flows (agent/packed.h): which chunks travel together, and the gather and scatter
// that carry them, refusing a pack whose pieces do not tile its range.
#include "agent/packed.h"
#include "error/error.h"
#include "transport/checksum.h"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <numeric>

namespace ba = baton::agent;
namespace bp = baton::protocol;
namespace bt = baton::transport;

namespace {

google::protobuf::RepeatedPtrField<bp::Chunk> chunks(
    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ranges) {
  google::protobuf::RepeatedPtrField<bp::Chunk> out;
  for (const auto& [stream, length] : ranges) {
    bp::Chunk* c = out.Add();
    c->set_stream_offset(stream);
    c->set_length(length);
  }
  return out;
}

using Runs = std::vector<std::pair<std::size_t, std::size_t>>;

std::string why(std::uint64_t offset, std::uint64_t length, const std::vector<ba::PackPiece>& pieces) {
  return ba::check_pack(offset, length, pieces).value_or("").reason;
}

std::vector<std::byte> bytes(std::size_t n, unsigned seed) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>((i * 31 + seed) & 0xff);
  return v;
}

// A sink whose stream offsets start at `stream` (as a ShiftedSink's do).
struct RecordingSink final : bt::Sink {
  std::uint64_t stream;
  std::vector<std::byte> bytes;
  RecordingSink(std::uint64_t at, std::size_t n) : stream(at), bytes(n) {}
  std::error_code write(std::uint64_t offset, std::span<const std::byte> data) override {
    if (offset < stream || offset - stream + data.size() > bytes.size())
      return std::make_error_code(std::errc::invalid_argument);
    std::copy(data.begin(), data.end(), bytes.begin() + static_cast<std::ptrdiff_t>(offset - stream));
    return {};
  }
};

// A source whose stream offsets start at `stream`, without views (a file's).
struct ReadOnlySource final : bt::Source {
  std::uint64_t stream;
  std::vector<std::byte> bytes;
  ReadOnlySource(std::uint64_t at, std::vector<std::byte> data) : stream(at), bytes(std::move(data)) {}
  std::uint64_t size() const override { return stream + bytes.size(); }
  std::error_code read(std::uint64_t offset, std::span<std::byte> into) const override {
    if (offset < stream || offset - stream + into.size() > bytes.size())
      return std::make_error_code(std::errc::invalid_argument);
    std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(offset - stream), into.size(), into.begin());
    return {};
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(packed)

BOOST_AUTO_TEST_CASE(touching_chunks_pack_up_to_the_limit) {
  // 10 chunks of 100 bytes back to back, at most 350 bytes a pack: 3 + 3 + 3 + 1.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (std::uint64_t i = 0; i < 10; ++i) ranges.emplace_back(i * 100, 100);
  BOOST_TEST((ba::pack_runs(chunks(ranges), 350) == Runs{{0, 3}, {3, 6}, {6, 9}, {9, 10}}));
  BOOST_TEST((ba::pack_runs(chunks(ranges), 1000) == Runs{{0, 10}}));
}

BOOST_AUTO_TEST_CASE(a_gap_an_empty_chunk_or_a_long_one_travels_alone) {
  // [0,100) [100,200) gap [300,400) empty [400,400) [400,500) long [500,5500) [5500,5600)
  const auto c = chunks({{0, 100}, {100, 100}, {300, 100}, {400, 0}, {400, 100}, {500, 5000}, {5500, 100}});
  BOOST_TEST((ba::pack_runs(c, 1000) == Runs{{0, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}}));
  BOOST_TEST(ba::pack_runs(chunks({}), 1000).empty());
}

BOOST_AUTO_TEST_CASE(pieces_that_tile_the_range_pass) {
  BOOST_TEST(!ba::check_pack(1000, 300, {{1000, 100}, {1100, 50}, {1150, 150}}).has_value());
}

BOOST_AUTO_TEST_CASE(pieces_that_do_not_add_up_are_refused) {
  BOOST_TEST(why(0, 300, {{0, 100}, {100, 100}}) == "the pieces of packed flow [0, 300) add up to 200 bytes, not 300");
  BOOST_TEST(why(0, 150, {{0, 100}, {100, 100}}) == "piece 1 [100, 200) runs past the end of packed flow [0, 150)");
  BOOST_TEST(why(0, 100, {}) == "a packed flow [0, 100) has no pieces");
  BOOST_TEST(why(0, 100, {{0, 100}, {100, 0}}) == "piece 1 [100, 100) of packed flow [0, 100) is empty");
}

BOOST_AUTO_TEST_CASE(overlapping_pieces_and_gaps_are_refused) {
  BOOST_TEST(why(0, 200, {{0, 100}, {50, 100}}) ==
             "piece 1 [50, 150) overlaps the bytes before it in packed flow [0, 200)");
  BOOST_TEST(why(0, 200, {{0, 100}, {120, 80}}) ==
             "piece 1 [120, 200) leaves a gap at [100, 120) in packed flow [0, 200)");
  BOOST_TEST(why(10, 100, {{0, 110}}) == "piece 0 [0, 110) overlaps the bytes before it in packed flow [10, 110)");
  const std::uint64_t top = ~std::uint64_t{0};
  BOOST_TEST(why(top - 10, 100, {{top - 10, 100}}).find("overflows") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_scatter_sink_refuses_hostile_pieces_when_made) {
  RecordingSink s0(0, 100), s1(100, 100);
  BOOST_CHECK_EXCEPTION(ba::ScatterSink(0, 250, {{0, 100}, {100, 100}}, {&s0, &s1}), baton::error::InvalidInput,
                        [](const baton::error::InvalidInput& e) {
                          return std::string(e.what()).find("add up to 200") != std::string::npos;
                        });
  BOOST_CHECK_EXCEPTION(
      ba::ScatterSink(0, 200, {{0, 100}, {90, 110}}, {&s0, &s1}), baton::error::InvalidInput,
      [](const baton::error::InvalidInput& e) { return std::string(e.what()).find("overlaps") != std::string::npos; });
  BOOST_CHECK_THROW(ba::ScatterSink(0, 200, {{0, 100}, {100, 100}}, {&s0}), baton::error::InvalidInput);
}

BOOST_AUTO_TEST_CASE(a_scatter_sink_writes_each_piece_and_hashes_it) {
  const auto data = bytes(300, 3);
  RecordingSink s0(1000, 120), s1(1120, 30), s2(1150, 150);
  ba::ScatterSink sink(1000, 300, {{1000, 120}, {1120, 30}, {1150, 150}}, {&s0, &s1, &s2});
  // Frames of 100 bytes cross the pieces' bounds.
  for (std::size_t at = 0; at < 300; at += 100) BOOST_TEST(!sink.write(1000 + at, std::span(data).subspan(at, 100)));
  BOOST_TEST(sink.written() == 300u);
  BOOST_TEST(std::equal(s0.bytes.begin(), s0.bytes.end(), data.begin()));
  BOOST_TEST(std::equal(s1.bytes.begin(), s1.bytes.end(), data.begin() + 120));
  BOOST_TEST(std::equal(s2.bytes.begin(), s2.bytes.end(), data.begin() + 150));
  BOOST_TEST(sink.checksum(0) == bt::xxh3_64(std::span(data).subspan(0, 120)));
  BOOST_TEST(sink.checksum(1) == bt::xxh3_64(std::span(data).subspan(120, 30)));
  BOOST_TEST(sink.checksum(2) == bt::xxh3_64(std::span(data).subspan(150, 150)));
}

// Pieces whole inside a frame are hashed at once, those across frames through one streaming
// state, started over for each: both give each piece's own XXH3.
BOOST_AUTO_TEST_CASE(pieces_across_frames_and_inside_one_each_get_their_own_hash) {
  const auto data = bytes(500, 4);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> spans = {
      {0, 10}, {10, 250}, {260, 5}, {265, 5}, {270, 230}};
  std::vector<std::unique_ptr<RecordingSink>> sinks;
  std::vector<bt::Sink*> targets;
  std::vector<ba::PackPiece> pieces;
  for (const auto& [at, length] : spans) {
    sinks.push_back(std::make_unique<RecordingSink>(at, length));
    targets.push_back(sinks.back().get());
    pieces.push_back({at, length});
  }
  ba::ScatterSink sink(0, 500, pieces, targets);
  for (std::size_t at = 0; at < 500; at += 100) BOOST_TEST(!sink.write(at, std::span(data).subspan(at, 100)));
  for (std::size_t i = 0; i < spans.size(); ++i) {
    BOOST_TEST(sink.checksum(i) == bt::xxh3_64(std::span(data).subspan(spans[i].first, spans[i].second)),
               "piece " << i);
  }
}

BOOST_AUTO_TEST_CASE(a_scatter_sink_refuses_writes_out_of_order_or_out_of_range) {
  const auto data = bytes(200, 5);
  RecordingSink s0(0, 100), s1(100, 100);
  ba::ScatterSink sink(0, 200, {{0, 100}, {100, 100}}, {&s0, &s1});
  BOOST_TEST(sink.write(50, std::span(data).subspan(0, 10)) ==
             std::make_error_code(std::errc::invalid_argument));  // not the next byte
  BOOST_TEST(!sink.write(0, std::span(data).subspan(0, 150)));
  BOOST_TEST(sink.write(150, std::span(data).subspan(0, 60)) ==
             std::make_error_code(std::errc::invalid_argument));  // past the end
  BOOST_TEST(sink.write(0, std::span(data).subspan(0, 10)) ==
             std::make_error_code(std::errc::invalid_argument));  // again
  BOOST_TEST(sink.written() == 150u);
}

BOOST_AUTO_TEST_CASE(a_gather_source_reads_each_piece_and_hashes_it) {
  const auto a = bytes(70, 1), b = bytes(200, 2);
  const bt::MemorySource viewable(a);  // offsets 0..70: a ShiftedSource would move them
  ReadOnlySource file(70, b);          // stream offsets 70..270
  ba::GatherSource source(0, 270, {{0, 70}, {70, 200}}, {&viewable, &file});
  BOOST_TEST(source.size() == 270u);
  std::vector<std::byte> out(270);
  // A view inside the first piece, then reads that cross into the second and go on.
  const auto view = source.view(0, 50);
  BOOST_REQUIRE(view.has_value());
  std::copy(view->begin(), view->end(), out.begin());
  BOOST_TEST(!source.view(50, 100).has_value());  // spans two pieces: must be read
  BOOST_TEST(!source.read(50, std::span(out).subspan(50, 100)));
  BOOST_TEST(source.read(0, std::span(out).subspan(0, 10)) ==
             std::make_error_code(std::errc::invalid_argument));  // out of order
  BOOST_TEST(source.read(150, std::span(out).subspan(150, 121)) ==
             std::make_error_code(std::errc::invalid_argument));  // past the end
  BOOST_TEST(!source.read(150, std::span(out).subspan(150, 120)));
  BOOST_TEST(std::equal(a.begin(), a.end(), out.begin()));
  BOOST_TEST(std::equal(b.begin(), b.end(), out.begin() + 70));
  BOOST_TEST(source.checksum(0) == bt::xxh3_64(a));
  BOOST_TEST(source.checksum(1) == bt::xxh3_64(b));
}

BOOST_AUTO_TEST_SUITE_END()
