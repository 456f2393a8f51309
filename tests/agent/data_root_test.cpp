#include "agent/data_root.h"
#include "error/error.h"
#include "tests/agent/promptly.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

namespace fs = std::filesystem;
using baton::agent::check_name;
using baton::agent::DataRoot;
using baton::agent::test::error_within;
using baton::test::read_all;
using baton::test::TempDir;

namespace {

// The message of the baton::error::SystemError `open` throws, or "" if it does not throw.
template <typename Open>
std::string open_error(Open open) {
  try {
    open();
  } catch (const baton::error::SystemError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(data_root)

BOOST_AUTO_TEST_CASE(names_that_escape_or_are_malformed_are_refused) {
  BOOST_TEST(check_name("x.bin").value_or("").reason == "");
  BOOST_TEST(check_name("a/b/x.bin").value_or("").reason == "");
  BOOST_TEST(check_name("a/..b/x..").value_or("").reason == "");
  BOOST_TEST(check_name("").value_or("").reason == "empty file name");
  BOOST_TEST(check_name("../x").value_or("").reason == "file name ../x contains '..'");
  BOOST_TEST(check_name("a/../../x").value_or("").reason == "file name a/../../x contains '..'");
  BOOST_TEST(check_name("a/..").value_or("").reason == "file name a/.. contains '..'");
  BOOST_TEST(check_name("/etc/passwd").value_or("").reason == "absolute file name /etc/passwd");
  BOOST_TEST(check_name(std::string_view("a\0b", 3)).value_or("").reason == "file name contains a NUL byte");
  BOOST_TEST(check_name(std::string(4096, 'x')).value_or("").reason == "");
  BOOST_TEST(check_name(std::string(4097, 'x')).value_or("").reason == "file name longer than 4096 bytes");
}

BOOST_AUTO_TEST_CASE(root_must_be_an_existing_directory) {
  TempDir dir;
  dir.write("file", "x");
  BOOST_CHECK_THROW(DataRoot(dir.path / "missing"), baton::error::InvalidInput);
  try {
    DataRoot root(dir.path / "file");
    BOOST_FAIL("a plain file was accepted as the data root");
  } catch (const baton::error::InvalidInput& e) {
    BOOST_TEST(std::string(e.what()).find((dir.path / "file").string()) != std::string::npos);
  }
  BOOST_CHECK_NO_THROW(DataRoot{dir.path});
}

BOOST_AUTO_TEST_CASE(bad_names_are_refused_by_open) {
  TempDir dir;
  DataRoot root(dir.path);
  BOOST_CHECK_THROW(root.open_source("../x"), baton::error::InvalidInput);
  BOOST_CHECK_THROW(root.open_source("/etc/passwd"), baton::error::InvalidInput);
  BOOST_CHECK_THROW(root.open_destination("a/../../x"), baton::error::InvalidInput);
  BOOST_TEST(!fs::exists(dir.path.parent_path() / "x"));
}

BOOST_AUTO_TEST_CASE(symlink_out_of_the_root_is_refused_by_the_kernel) {
  TempDir dir;
  fs::create_directory_symlink("/etc", dir.path / "etc");
  fs::create_symlink("/etc/hostname", dir.path / "host");
  DataRoot root(dir.path);
  const std::string through_dir = open_error([&] { root.open_source("etc/passwd"); });
  BOOST_TEST(through_dir.find("etc/passwd") != std::string::npos);
  BOOST_TEST(through_dir.find("outside the data root") != std::string::npos);
  const std::string through_file = open_error([&] { root.open_source("host"); });
  BOOST_TEST(through_file.find("outside the data root") != std::string::npos);
  BOOST_TEST(open_error([&] { root.open_destination("etc/baton-test"); }).find("outside the data root") !=
             std::string::npos);
  BOOST_TEST(open_error([&] { root.file_size("etc/passwd"); }).find("outside the data root") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(symlink_inside_the_root_is_followed) {
  TempDir dir;
  dir.write("data/x.bin", "hello");
  fs::create_symlink("data/x.bin", dir.path / "link");
  fs::create_directory_symlink("data", dir.path / "d");
  DataRoot root(dir.path);
  auto fd = root.open_source("link");
  char buffer[8] = {};
  BOOST_TEST(::read(fd.get(), buffer, sizeof buffer) == 5);
  BOOST_TEST(std::string(buffer) == "hello");
  BOOST_TEST(root.file_size("d/x.bin") == 5u);
}

BOOST_AUTO_TEST_CASE(missing_source_names_the_file) {
  TempDir dir;
  DataRoot root(dir.path);
  const std::string error = open_error([&] { root.open_source("nope.bin"); });
  BOOST_TEST(error.find("nope.bin") != std::string::npos);
  BOOST_CHECK_THROW(root.file_size("nope.bin"), baton::error::SystemError);
}

BOOST_AUTO_TEST_CASE(destination_parents_are_created_with_mode_0644) {
  TempDir dir;
  DataRoot root(dir.path);
  {
    auto fd = root.open_destination("a/b/c/y.bin");
    BOOST_TEST(::pwrite(fd.get(), "abc", 3, 2) == 3);
  }
  BOOST_TEST(fs::is_directory(dir.path / "a/b/c"));
  BOOST_TEST(read_all(dir.path / "a/b/c/y.bin") == std::string("\0\0abc", 5));
  BOOST_TEST(root.file_size("a/b/c/y.bin") == 5u);
  const auto perms = fs::status(dir.path / "a/b/c/y.bin").permissions() & fs::perms::all;
  BOOST_TEST(((perms & ~fs::perms(0644)) == fs::perms::none));  // umask may only remove bits
  BOOST_TEST(((perms & fs::perms::owner_write) != fs::perms::none));
}

BOOST_AUTO_TEST_CASE(destination_is_not_truncated) {
  TempDir dir;
  dir.write("y.bin", "0123456789");
  DataRoot root(dir.path);
  {
    auto fd = root.open_destination("y.bin");
    BOOST_TEST(::pwrite(fd.get(), "ab", 2, 3) == 2);
    BOOST_TEST((::fcntl(fd.get(), F_GETFL) & O_ACCMODE) == O_WRONLY);
  }
  BOOST_TEST(read_all(dir.path / "y.bin") == "012ab56789");
}

BOOST_AUTO_TEST_CASE(fd_is_closed_and_moved) {
  TempDir dir;
  dir.write("x", "1");
  DataRoot root(dir.path);
  int raw = -1;
  {
    auto fd = root.open_source("x");
    raw = fd.get();
    baton::agent::Fd moved = std::move(fd);
    BOOST_TEST(!fd);
    BOOST_TEST(moved.get() == raw);
  }
  BOOST_TEST(::fcntl(raw, F_GETFD) == -1);
}

// The review's hang: a plan naming a FIFO blocked the agent in open(2) for ever. Now
// every way in refuses it at once, naming the file and what it is.
BOOST_AUTO_TEST_CASE(a_fifo_is_refused_at_once_on_both_ends) {
  TempDir dir;
  fs::create_directory(dir.path / "d");
  BOOST_REQUIRE(::mkfifo((dir.path / "d/p").c_str(), 0644) == 0);
  DataRoot root(dir.path);
  const std::string expected = "d/p is a fifo, not a regular file (under " + dir.path.string() + ")";
  const auto source = error_within([&] { root.open_source("d/p"); }, dir.path / "d/p");
  BOOST_REQUIRE_MESSAGE(source.has_value(), "open_source blocked on a FIFO");
  BOOST_TEST(*source == expected);
  const auto destination = error_within([&] { root.open_destination("d/p"); }, dir.path / "d/p");
  BOOST_REQUIRE_MESSAGE(destination.has_value(), "open_destination blocked on a FIFO");
  BOOST_TEST(*destination == expected);
  BOOST_TEST((error_within([&] { root.check_destination("d/p"); }, dir.path / "d/p") == expected));
  BOOST_TEST((error_within([&] { root.file_size("d/p"); }, dir.path / "d/p") == expected));
}

// A reader waiting on the FIFO does not make it acceptable either.
BOOST_AUTO_TEST_CASE(a_fifo_with_a_reader_is_refused_as_a_destination) {
  TempDir dir;
  BOOST_REQUIRE(::mkfifo((dir.path / "p").c_str(), 0644) == 0);
  const int reader = ::open((dir.path / "p").c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  BOOST_REQUIRE(reader >= 0);
  DataRoot root(dir.path);
  const auto error = error_within([&] { root.open_destination("p"); }, dir.path / "p");
  ::close(reader);
  BOOST_REQUIRE(error.has_value());
  BOOST_TEST(error->starts_with("p is a fifo, not a regular file"), *error);
}

BOOST_AUTO_TEST_CASE(sockets_and_directories_are_named_for_what_they_are) {
  TempDir dir;
  fs::create_directory(dir.path / "sub");
  const int listening = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  BOOST_REQUIRE(listening >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string socket_path = (dir.path / "s").string();
  BOOST_REQUIRE(socket_path.size() < sizeof address.sun_path);
  socket_path.copy(address.sun_path, socket_path.size());
  BOOST_REQUIRE(::bind(listening, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  DataRoot root(dir.path);
  const auto thrown = [](auto call) {
    try {
      call();
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  BOOST_TEST(thrown([&] { root.open_source("s"); }).starts_with("s is a socket, not a regular file"));
  BOOST_TEST(thrown([&] { root.open_destination("s"); }).starts_with("s is a socket, not a regular file"));
  BOOST_TEST(thrown([&] { root.open_source("sub"); }).starts_with("sub is a directory, not a regular file"));
  BOOST_TEST(thrown([&] { root.open_destination("sub"); }).starts_with("sub is a directory, not a regular file"));
  BOOST_TEST(thrown([&] { root.check_destination("sub"); }).starts_with("sub is a directory, not a regular file"));
  BOOST_TEST(thrown([&] { root.open_destination("/dev/null"); }) == "absolute file name /dev/null");
  ::close(listening);
}

BOOST_AUTO_TEST_CASE(a_missing_destination_passes_the_check_and_a_regular_one_opens_blocking) {
  TempDir dir;
  dir.write("x", "1");
  DataRoot root(dir.path);
  BOOST_CHECK_NO_THROW(root.check_destination("a/b/new.bin"));
  BOOST_TEST(!fs::exists(dir.path / "a"));  // the check creates nothing
  BOOST_CHECK_NO_THROW(root.check_destination("x"));
  const auto source = root.open_source("x");
  const auto destination = root.open_destination("x");
  BOOST_TEST((::fcntl(source.get(), F_GETFL) & O_NONBLOCK) == 0);
  BOOST_TEST((::fcntl(destination.get(), F_GETFL) & O_NONBLOCK) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
