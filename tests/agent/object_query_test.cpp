// ObjectQuery → ObjectAnswer (docs/collectives.md, "Jobs"): what the coordinator learns of
// the objects a job would read, before it accepts the job. Regular files and registered
// regions with their sizes; a missing one; and everything that cannot be read, named —
// a FIFO answered at once instead of hanging the agent.
#include "agent/object_query.h"
#include "agent/file_storage.h"
#include "agent/memory_storage.h"
#include "tests/agent/promptly.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

namespace ba = baton::agent;
namespace bp = baton::protocol;
namespace fs = std::filesystem;
using baton::test::TempDir;

namespace {

bp::ObjectQuery query(std::initializer_list<std::string> names) {
  bp::ObjectQuery q;
  q.set_query(42);
  for (const std::string& name : names) q.add_objects(name);
  return q;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(object_query)

BOOST_AUTO_TEST_CASE(files_are_answered_with_their_size_or_why_not) {
  TempDir dir;
  dir.write("grad.bin", std::string(4096, 'g'));
  dir.write("sub/x.bin", "abc");
  fs::create_directory(dir.path / "a-dir");
  fs::create_symlink("/etc/hostname", dir.path / "out");
  BOOST_REQUIRE(::mkfifo((dir.path / "pipe").c_str(), 0644) == 0);
  const ba::DataRoot root(dir.path);
  ba::FileStorage storage(root);
  bp::ObjectAnswer a;
  // A FIFO is looked at, never waited on: the answer comes at once.
  const auto error = baton::agent::test::error_within(
      [&] {
        a = ba::answer(query({"grad.bin", "sub/x.bin", "missing.bin", "pipe", "a-dir", "out", "../up", "scratch:q",
                              ".baton-scratch/n1/q"}),
                       storage);
      },
      dir.path / "pipe");
  BOOST_REQUIRE_MESSAGE(error.has_value(), "the query blocked on a FIFO");
  BOOST_TEST(a.query() == 42u);
  BOOST_REQUIRE(a.objects_size() == 9);
  const auto info = [&](int i) { return a.objects(i); };
  BOOST_TEST(
      (info(0).object() == "grad.bin" && info(0).exists() && info(0).size() == 4096u && info(0).error().empty()));
  BOOST_TEST((info(1).exists() && info(1).size() == 3u));
  BOOST_TEST((!info(2).exists() && info(2).error().empty()));  // missing: not there, nothing wrong with the name
  BOOST_TEST((!info(3).exists() && info(3).error().find("pipe is a fifo, not a regular file") != std::string::npos),
             info(3).error());
  BOOST_TEST(info(4).error().find("a-dir is a directory, not a regular file") != std::string::npos, info(4).error());
  BOOST_TEST(info(5).error().find("outside the data root") != std::string::npos, info(5).error());
  BOOST_TEST(info(6).error().find("contains '..'") != std::string::npos, info(6).error());
  BOOST_TEST(info(7).error().find("a scratch object belongs to the job that writes it") != std::string::npos);
  BOOST_TEST(info(8).error().find("inside the agent's scratch directory") != std::string::npos, info(8).error());
}

BOOST_AUTO_TEST_CASE(regions_are_answered_with_their_size) {
  ba::MemoryStorage storage;
  std::vector<std::byte> grad(800);
  storage.register_region("grad", grad);
  const bp::ObjectAnswer a = ba::answer(query({"grad", "other"}), storage);
  BOOST_REQUIRE(a.objects_size() == 2);
  BOOST_TEST((a.objects(0).exists() && a.objects(0).size() == 800u));
  BOOST_TEST((!a.objects(1).exists() && a.objects(1).error().empty()));
}

BOOST_AUTO_TEST_CASE(a_query_naming_too_many_objects_gets_one_line_saying_so) {
  ba::MemoryStorage storage;
  bp::ObjectQuery q;
  for (int i = 0; i <= ba::max_queried_objects; ++i) q.add_objects("x");
  const bp::ObjectAnswer a = ba::answer(q, storage);
  BOOST_REQUIRE(a.objects_size() == 1);
  BOOST_TEST(a.objects(0).error() == "a query may name at most 1024 objects, this one names 1025");
}

BOOST_AUTO_TEST_SUITE_END()
