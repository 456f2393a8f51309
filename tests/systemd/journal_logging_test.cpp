// The daemons' log format under systemd: with stderr connected to the journal
// (JOURNAL_STREAM names stderr's device:inode, as systemd sets it) every line starts with
// its sd-daemon priority and has no timestamp of ours; otherwise lines keep the timestamp.
// Checked on the real baton-coordinator, its stderr a file standing in for the stream.
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

using baton::test::Daemon;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// A directory with the cluster secret, for a coordinator's configuration.
struct Scratch : baton::test::TempDir {
  Scratch() : TempDir("baton-journal") { write("secret", "journal-test-secret-0123456789\n"); }
  // A coordinator configuration on free loopback ports; `extra` appended.
  fs::path config(const std::string& extra = {}) const {
    write(
        "coordinator.toml",
        "agent_address = \"127.0.0.1:0\"\napi_address = \"127.0.0.1:0\"\nsecret_file = \"secret\"\nstate_dir = \"state\"\n" +
            extra);
    return path / "coordinator.toml";
  }
};

// "DEVICE:INODE" of `path`, as JOURNAL_STREAM spells it.
std::string device_inode(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw std::runtime_error("cannot stat " + path.string());
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
}

// Starts baton-coordinator with `config`, its stderr into `log` and JOURNAL_STREAM set to
// `journal_stream` (unset when empty); waits until it logged `until` or exited.
std::string run_coordinator(const fs::path& config, const fs::path& log, const std::string& journal_stream,
                            const std::string& until) {
  std::ofstream{log};  // exists before the daemon opens it, so its inode can be named
  const std::string stream = journal_stream == "stderr" ? device_inode(log) : journal_stream;
  if (stream.empty()) ::unsetenv("JOURNAL_STREAM");
  else ::setenv("JOURNAL_STREAM", stream.c_str(), 1);
  Daemon daemon({BATON_COORDINATOR_PATH, "--config", config.string()}, log.string());
  ::unsetenv("JOURNAL_STREAM");
  // Its log is a file, where nothing signals a new line: read it every 20 ms, for at most
  // 5 s (a coordinator logs `until` within milliseconds of starting).
  for (int i = 0; i < 250 && daemon.running() && daemon.log().find(until) == std::string::npos; ++i) {
    std::this_thread::sleep_for(20ms);
  }
  daemon.stop();
  return daemon.log();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> all;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) all.push_back(line);
  return all;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(journal_logging)

BOOST_AUTO_TEST_CASE(into_the_journal_lines_carry_their_priority_and_no_timestamp) {
  Scratch scratch;
  const std::string log =
      run_coordinator(scratch.config(), scratch.path / "journal.log", "stderr", "listening for agents");
  const auto all = lines(log);
  BOOST_REQUIRE_MESSAGE(all.size() >= 2, log);
  for (const std::string& line : all) {
    BOOST_TEST(std::regex_match(line, std::regex("<[0-7]>[^<].*")), "no priority prefix: " << line);
    BOOST_TEST(!std::regex_search(line, std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}T")), "a timestamp of ours: " << line);
  }
  BOOST_TEST(log.find("<6>coordinator coordinator listening for agents at 127.0.0.1:") != std::string::npos, log);
  BOOST_TEST(log.find("<6>signal 15: stopping") != std::string::npos, log);
}

BOOST_AUTO_TEST_CASE(errors_reach_the_journal_as_errors) {
  Scratch scratch;
  const std::string log =
      run_coordinator(scratch.config("log_level = \"loud\"\n"), scratch.path / "journal.log", "stderr", "log_level");
  BOOST_TEST(log.find("<3>configuration " + (scratch.path / "coordinator.toml").string() + ": log_level must be") !=
                 std::string::npos,
             log);
}

BOOST_AUTO_TEST_CASE(elsewhere_lines_keep_their_timestamp) {
  Scratch scratch;
  std::ofstream(scratch.path / "other") << "another file\n";
  // JOURNAL_STREAM inherited from a parent whose stderr was the journal: not ours.
  for (const std::string& stream : {std::string(), device_inode(scratch.path / "other"), std::string("garbage")}) {
    const std::string log =
        run_coordinator(scratch.config(), scratch.path / "plain.log", stream, "listening for agents");
    const auto all = lines(log);
    BOOST_REQUIRE_MESSAGE(!all.empty(), log);
    const std::regex timestamped("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+ (info|debug|warning|error) ");
    for (const std::string& line : all) {
      BOOST_TEST(std::regex_search(line, timestamped), "JOURNAL_STREAM=" << stream << ": " << line);
    }
    fs::remove(scratch.path / "plain.log");
  }
}

BOOST_AUTO_TEST_SUITE_END()
