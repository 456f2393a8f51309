// Which file a name is (agent/file_identity.h): every spelling of one file answers one
// identity, on one agent or on two over one file system, and different files answer
// different ones (docs/runtime.md, "In-place jobs"). Real files, real links.
#include "agent/file_identity.h"
#include "agent/file_storage.h"
#include "agent/object_query.h"
#include "error/error.h"
#include "tests/support/temp_dir.h"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <stdexcept>

namespace ba = baton::agent;
namespace bp = baton::protocol;
namespace fs = std::filesystem;
using baton::test::TempDir;

BOOST_AUTO_TEST_SUITE(file_identity)

BOOST_AUTO_TEST_CASE(every_spelling_of_an_existing_file_is_one_identity) {
  TempDir dir;
  dir.write("array.bin", std::string(100, 'a'));
  dir.write("d/f.bin", "f");
  dir.write("other.bin", std::string(100, 'a'));
  fs::create_directory_symlink("d", dir.path / "linked");  // a symlinked directory inside the root
  fs::create_hard_link(dir.path / "array.bin", dir.path / "hard.bin");
  fs::create_symlink("array.bin", dir.path / "soft.bin");
  const ba::DataRoot root(dir.path);
  const std::string array = ba::file_identity(root, "array.bin");
  BOOST_TEST(array.starts_with("files:" + ba::machine_id() + ":"));
  for (const char* name : {"./array.bin", ".//array.bin", "hard.bin", "soft.bin", "./././hard.bin"})
    BOOST_TEST(ba::file_identity(root, name) == array, name);
  BOOST_TEST(ba::file_identity(root, "other.bin") != array);  // equal bytes, another file
  const std::string f = ba::file_identity(root, "d/f.bin");
  for (const char* name : {"./d/f.bin", "linked/f.bin", "d//f.bin", "./linked/./f.bin"})
    BOOST_TEST(ba::file_identity(root, name) == f, name);
  BOOST_TEST(f != array);
}

BOOST_AUTO_TEST_CASE(a_missing_file_is_its_existing_directory_and_the_rest_of_its_name) {
  TempDir dir;
  fs::create_directory(dir.path / "d");
  fs::create_directory_symlink("d", dir.path / "linked");
  const ba::DataRoot root(dir.path);
  BOOST_TEST(ba::file_identity(root, "out.bin") == ba::file_identity(root, "./out.bin"));
  BOOST_TEST(ba::file_identity(root, "d/new.bin") == ba::file_identity(root, "linked/new.bin"));
  BOOST_TEST(ba::file_identity(root, "d/new.bin").ends_with("/new.bin"));
  // Missing directories too: what a write would create, named from the deepest one there.
  BOOST_TEST(ba::file_identity(root, "linked/x/y/z.bin") == ba::file_identity(root, "./d//x/y/./z.bin"));
  BOOST_TEST(ba::file_identity(root, "d/x/y/z.bin").ends_with("/x/y/z.bin"));
  BOOST_TEST(ba::file_identity(root, "out.bin") != ba::file_identity(root, "d/out.bin"));
  // Once written, the file is itself: its own inode, equal under every name again.
  std::ofstream(dir.path / "d" / "new.bin") << "n";
  BOOST_TEST(ba::file_identity(root, "d/new.bin") == ba::file_identity(root, "linked/new.bin"));
  BOOST_TEST(!ba::file_identity(root, "d/new.bin").ends_with("/new.bin"));
}

BOOST_AUTO_TEST_CASE(two_agents_over_one_file_system_answer_one_identity) {
  TempDir dir;
  dir.write("shared/x.bin", "x");
  const ba::DataRoot a(dir.path / "shared"), b(dir.path / "shared"), outer(dir.path);
  BOOST_TEST(ba::file_identity(a, "x.bin") == ba::file_identity(b, "./x.bin"));
  BOOST_TEST(ba::file_identity(a, "y.bin") == ba::file_identity(b, "y.bin"));
  // A root inside another: the same file under the outer root's name for it.
  BOOST_TEST(ba::file_identity(a, "x.bin") == ba::file_identity(outer, "shared/x.bin"));
  BOOST_TEST(ba::file_identity(a, "new/y.bin") == ba::file_identity(outer, "shared/new/y.bin"));
}

BOOST_AUTO_TEST_CASE(names_that_lead_nowhere_usable_are_refused) {
  TempDir dir;
  fs::create_symlink("missing.bin", dir.path / "dangling.bin");
  fs::create_symlink("/etc", dir.path / "out");
  const ba::DataRoot root(dir.path);
  BOOST_CHECK_THROW(ba::file_identity(root, "a/../x"), baton::error::InvalidInput);  // ".." never resolves
  BOOST_CHECK_THROW(ba::file_identity(root, "/etc/passwd"), baton::error::InvalidInput);
  BOOST_CHECK_EXCEPTION(
      ba::file_identity(root, "dangling.bin"), baton::error::InvalidInput, [](const baton::error::InvalidInput& e) {
        return std::string(e.what()).find("dangling.bin is a symlink to a missing file") != std::string::npos;
      });
  BOOST_CHECK_THROW(ba::file_identity(root, "out/passwd"), baton::error::SystemError);  // outside the root
}

BOOST_AUTO_TEST_CASE(the_object_query_answers_identities_of_files_read_and_written) {
  TempDir dir;
  dir.write("src.bin", "abc");
  fs::create_hard_link(dir.path / "src.bin", dir.path / "alias.bin");
  const ba::DataRoot root(dir.path);
  ba::FileStorage storage(root);
  bp::ObjectQuery q;
  q.set_query(7);
  for (const char* name : {"src.bin", "./src.bin", "alias.bin", "out.bin", "./out.bin", "a/../src.bin"})
    q.add_objects(name);
  const bp::ObjectAnswer a = ba::answer(q, storage);
  BOOST_REQUIRE(a.objects_size() == 6);
  BOOST_TEST(!a.objects(0).identity().empty());
  BOOST_TEST(a.objects(1).identity() == a.objects(0).identity());
  BOOST_TEST(a.objects(2).identity() == a.objects(0).identity());
  BOOST_TEST((!a.objects(3).exists() && !a.objects(3).identity().empty()));  // a destination to be
  BOOST_TEST(a.objects(4).identity() == a.objects(3).identity());
  BOOST_TEST(a.objects(3).identity() != a.objects(0).identity());
  BOOST_TEST((a.objects(5).identity().empty() && a.objects(5).error().find("'..'") != std::string::npos));
}

BOOST_AUTO_TEST_SUITE_END()
