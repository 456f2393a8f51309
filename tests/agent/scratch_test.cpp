// Scratch objects (docs/collectives.md, "Tasks"): the daemon's are files in a job-private
// directory under the data root, gone when the job's runner closes (the job ended or was
// aborted) and, after a crash, when the next agent process of the node starts; the
// embedded agent's are memory that a flow still writing keeps alive. The names never
// lead out of their directory.
#include "agent/file_scratch.h"
#include "agent/memory_scratch.h"
#include "agent/step_runner.h"
#include "error/error.h"
#include "tests/agent/step_harness.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <fstream>

using namespace baton::agent::test;
using baton::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::size_t entries(const fs::path& directory) {
  std::error_code ec;
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(directory, ec), fs::directory_iterator()));
}

void write(bt::Sink& sink, std::uint64_t offset, const std::string& text) {
  BOOST_TEST(!sink.write(offset, std::as_bytes(std::span(text))));
}

std::string read(const bt::Source& source, std::uint64_t offset, std::size_t length) {
  std::string text(length, '\0');
  BOOST_TEST(!source.read(offset, std::as_writable_bytes(std::span(text))));
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scratch)

BOOST_AUTO_TEST_CASE(names_are_one_plain_file_name) {
  BOOST_TEST(!ba::check_scratch_name("scratch:from-n3.part_2"));
  for (const char* bad : {"scratch:", "scratch:.x", "scratch:..", "scratch:a/b", "scratch:a\\b", "scratch:a b",
                          "scratch:\xc3\xa9", "x:a", "grad.bin"}) {
    BOOST_TEST(ba::check_scratch_name(bad).has_value(), bad);
  }
  BOOST_TEST(ba::check_scratch_name("scratch:" + std::string(129, 'a')).has_value());
}

BOOST_AUTO_TEST_CASE(a_jobs_files_live_in_its_directory_until_it_ends) {
  TempDir dir;
  const ba::DataRoot root(dir.path);
  ba::FileScratch space(root, "n1");
  const fs::path mine = dir.path / ".baton-scratch" / "n1";
  {
    const std::unique_ptr<ba::Storage> job = space.open(9, {{"scratch:q", 5}});
    BOOST_TEST(entries(mine) == 1u);  // made at the plan: 9.1/
    BOOST_TEST(fs::is_directory(mine / "9.1"));
    write(*job->sink("scratch:q"), 0, "hello");
    BOOST_TEST(read(*job->source("scratch:q"), 0, 5) == "hello");
    BOOST_TEST(fs::file_size(mine / "9.1" / "q") == 5u);
    const ba::ObjectStatus status = job->status("scratch:q");
    BOOST_TEST((status.exists && status.size == 5u));
    BOOST_CHECK_THROW(job->sink("scratch:../../../../escape"), baton::error::InvalidInput);
  }
  BOOST_TEST(entries(mine) == 0u);  // the job's storage dropped (StepRunner::close): gone
  BOOST_TEST(!fs::exists(dir.path / "escape"));
}

BOOST_AUTO_TEST_CASE(a_new_agent_process_removes_what_a_crashed_one_left) {
  TempDir dir;
  dir.write(".baton-scratch/n1/4.1/q", "left by a crash");
  dir.write(".baton-scratch/n1/4.1/deeper/r", "and this");
  dir.write(".baton-scratch/n2/7.1/q", "another node's, live");  // two agents may share a root
  dir.write("data.bin", "mine");
  fs::create_symlink(dir.path / "data.bin", dir.path / ".baton-scratch/n1/link");
  const ba::DataRoot root(dir.path);
  ba::FileScratch space(root, "n1");
  BOOST_TEST(!fs::exists(dir.path / ".baton-scratch/n1"));
  BOOST_TEST(fs::exists(dir.path / ".baton-scratch/n2/7.1/q"));
  BOOST_TEST(fs::exists(dir.path / "data.bin"));  // a symlink is removed, not followed
}

BOOST_AUTO_TEST_CASE(a_node_id_that_is_not_a_plain_name_gets_a_hashed_directory) {
  TempDir dir;
  const ba::DataRoot root(dir.path);
  ba::FileScratch space(root, "../../etc");
  BOOST_TEST(space.directory().rfind(".baton-scratch/%", 0) == 0u, space.directory());
  const auto job = space.open(1, {});
  BOOST_TEST(fs::is_directory(dir.path / space.directory() / "1.1"));
}

BOOST_AUTO_TEST_CASE(memory_scratch_outlives_the_job_while_a_sink_still_writes) {
  ba::MemoryScratch space;
  std::unique_ptr<ba::Storage> job = space.open(3, {{"scratch:q", 8}});
  const std::unique_ptr<bt::Sink> sink = job->sink("scratch:q");
  const std::unique_ptr<bt::Source> source = job->source("scratch:q");
  BOOST_TEST(source->size() == 8u);
  job.reset();  // the job ended while a flow was still writing
  write(*sink, 0, "late");
  BOOST_TEST(read(*source, 0, 4) == "late");
}

// The runner holds the job's scratch and drops it when the job ends (close), as the agent
// does on JobEnded and on Abort.
BOOST_AUTO_TEST_CASE(closing_the_runner_removes_the_jobs_scratch_files) {
  TempDir dir;
  const ba::DataRoot root(dir.path);
  ba::FileScratch space(root, "n1");
  TwoAgents t;
  bp::Plan plan;
  plan.set_job("9");
  plan.set_job_number(9);
  plan.set_k(1);
  plan.set_kind("reduce");
  ba::StepRunner runner(*t.a.context, t.a.storage, plan, t.a.identity, {}, space.open(9, {{"scratch:q", 4}}));
  BOOST_TEST(entries(dir.path / ".baton-scratch/n1") == 1u);
  runner.close();
  BOOST_TEST(entries(dir.path / ".baton-scratch/n1") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
