// Staging an in-place job's destination under a real data root (agent/destination_staging.h).
#include "agent/file_staging.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <iterator>

namespace ba = baton::agent;
namespace bp = baton::protocol;
using baton::test::read_all;
using baton::test::TempDir;

namespace {

bp::StagedFile staged(const std::string& file, const std::string& staging) {
  bp::StagedFile s;
  s.set_file(file);
  s.set_staging(staging);
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(file_staging)

BOOST_AUTO_TEST_CASE(a_commit_keeps_the_bytes_the_job_did_not_write_and_replaces_the_file) {
  TempDir dir;
  dir.write("d/a.bin", "0123456789abcdef");
  const ba::DataRoot root(dir.path);
  ba::FileStaging staging(root);
  const auto s = staged("d/a.bin", "d/.a.bin.baton-1-t");
  staging.prepare(s);
  BOOST_TEST(read_all(dir.path / "d/a.bin") == "0123456789abcdef");  // untouched until the commit
  // The job wrote [2, 5) and [8, 10) of the staging file, and a byte past the old end.
  {
    std::fstream f(dir.path / "d/.a.bin.baton-1-t", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(2) << "XYZ";
    f.seekp(8) << "QR";
    f.seekp(17) << "!";
  }
  staging.commit(s, {{2, 5}, {8, 10}, {17, 18}});
  BOOST_TEST(read_all(dir.path / "d/a.bin") == std::string("01XYZ567QRabcdef\0!", 18));
  BOOST_TEST(!std::filesystem::exists(dir.path / "d/.a.bin.baton-1-t"));
}

BOOST_AUTO_TEST_CASE(a_staging_file_that_exists_is_kept_for_a_restarted_agent) {
  TempDir dir;
  dir.write(".a.bin.baton-2-t", "written before the crash");
  const ba::DataRoot root(dir.path);
  ba::FileStaging staging(root);
  staging.prepare(staged("a.bin", ".a.bin.baton-2-t"));
  BOOST_TEST(read_all(dir.path / ".a.bin.baton-2-t") == "written before the crash");
}

BOOST_AUTO_TEST_CASE(a_new_destination_is_the_staging_file_alone) {
  TempDir dir;
  const ba::DataRoot root(dir.path);
  ba::FileStaging staging(root);
  const auto s = staged("new.bin", ".new.bin.baton-3-t");
  staging.prepare(s);
  dir.write(".new.bin.baton-3-t", "abc");
  staging.commit(s, {{0, 3}});
  BOOST_TEST(read_all(dir.path / "new.bin") == "abc");
}

BOOST_AUTO_TEST_CASE(a_discarded_staging_file_is_gone_and_the_destination_as_it_was) {
  TempDir dir;
  dir.write("a.bin", "original");
  const ba::DataRoot root(dir.path);
  ba::FileStaging staging(root);
  const auto s = staged("a.bin", ".a.bin.baton-4-t");
  staging.prepare(s);
  staging.discard(s);
  staging.discard(s);  // twice: nothing left to remove is no error
  BOOST_TEST(!std::filesystem::exists(dir.path / ".a.bin.baton-4-t"));
  BOOST_TEST(read_all(dir.path / "a.bin") == "original");
}

BOOST_AUTO_TEST_CASE(the_written_ranges_are_the_received_chunks_of_the_staging_file_merged) {
  bp::Plan plan;
  for (int s = 0; s < 2; ++s) {
    bp::Flow& in = *plan.add_steps()->add_flows();
    in.set_send(false);
    bp::Chunk& c = *in.add_chunks();
    c.set_dst_file(".a.baton-1");
    c.set_dst_offset(s == 0 ? 10 : 0);
    c.set_length(10);
    bp::Chunk& other = *in.add_chunks();
    other.set_dst_file("b.bin");
    other.set_dst_offset(100);
    other.set_length(5);
  }
  bp::Flow& out = *plan.mutable_steps(0)->add_flows();  // a send: the peer's file, not ours
  out.set_send(true);
  bp::Chunk& sent = *out.add_chunks();
  sent.set_dst_file(".a.baton-1");
  sent.set_dst_offset(50);
  sent.set_length(5);
  BOOST_TEST((ba::written_ranges(plan, ".a.baton-1") == ba::ByteRanges{{0, 20}}));
}

BOOST_AUTO_TEST_CASE(two_agents_over_one_data_root_have_one_storage_id_and_others_another) {
  TempDir a, b;
  const ba::DataRoot root_a(a.path), again(a.path), root_b(b.path);
  BOOST_TEST(ba::storage_id(root_a) == ba::storage_id(again));
  BOOST_TEST(ba::storage_id(root_a) != ba::storage_id(root_b));
  BOOST_TEST(ba::storage_id(root_a).starts_with("files:"));
}

BOOST_AUTO_TEST_SUITE_END()
