// FileSource and FileSink open regular files only, without ever blocking on a FIFO, and
// FileSink::sync reports what fdatasync(2) says.
#include <boost/test/unit_test.hpp>

#include "error/error.h"
#include "tests/agent/promptly.h"
#include "tests/support/temp_dir.h"
#include "transport/source.h"

#include <array>
#include <fstream>
#include <iterator>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using baton::agent::test::error_within;
using baton::test::TempDir;
using namespace baton::transport;

BOOST_AUTO_TEST_CASE(a_fifo_is_refused_at_once_by_path) {
  TempDir dir;
  const fs::path fifo = dir.path / "p";
  BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  const auto source = error_within([&] { FileSource s(fifo.string()); }, fifo);
  BOOST_REQUIRE_MESSAGE(source.has_value(), "FileSource blocked on a FIFO");
  BOOST_TEST(source->starts_with("cannot open " + fifo.string() + " for reading: it is a fifo, not a regular file"),
             *source);
  const auto sink = error_within([&] { FileSink s(fifo.string()); }, fifo);
  BOOST_REQUIRE_MESSAGE(sink.has_value(), "FileSink blocked on a FIFO");
  BOOST_TEST(sink->starts_with("cannot open " + fifo.string() + " for writing: it is a fifo"), *sink);
}

BOOST_AUTO_TEST_CASE(an_adopted_descriptor_that_is_not_a_regular_file_is_refused) {
  std::array<int, 2> pipe_ends{};
  BOOST_REQUIRE(::pipe2(pipe_ends.data(), O_CLOEXEC) == 0);
  try {
    FileSource source(pipe_ends[0], "the pipe");
    BOOST_FAIL("a pipe was adopted as a file source");
  } catch (const baton::error::SystemError& e) {
    BOOST_TEST(std::string(e.what()).starts_with("the pipe is a fifo, not a regular file"), e.what());
  }
  BOOST_TEST(::fcntl(pipe_ends[0], F_GETFD) == -1);  // closed on refusal, as adopted
  ::close(pipe_ends[1]);
}

BOOST_AUTO_TEST_CASE(sync_reports_what_fdatasync_says) {
  TempDir dir;
  const fs::path file = dir.path / "out.bin";
  {
    FileSink sink(file.string());
    const std::string bytes = "durable";
    BOOST_TEST(!sink.write(3, std::as_bytes(std::span(bytes))));
    const std::error_code synced = sink.sync();
    BOOST_TEST(!synced, synced.message());
  }
  std::ifstream in(file, std::ios::binary);
  BOOST_TEST(std::string(std::istreambuf_iterator<char>(in), {}) == std::string("\0\0\0durable", 10));
  // fdatasync on a pipe fails with EINVAL: the error comes back, it is not swallowed.
  std::array<int, 2> pipe_ends{};
  BOOST_REQUIRE(::pipe2(pipe_ends.data(), O_CLOEXEC) == 0);
  ::close(pipe_ends[0]);
  FileSink pipe(pipe_ends[1]);
  BOOST_TEST((pipe.sync() == std::errc::invalid_argument));
}
