// What a configuration file's bytes may do to the reader (config/toml_file.h): each hazard
// the fuzz targets found in toml11 (docs/fuzzing.md, findings 2, 4 and 5) and toml++'s
// own unbounded nesting of dotted keys, refused with a one-line error naming the line, or
// read safely.
#include "config/toml_file.h"
#include "tests/support/temp_dir.h"

#include "error/error.h"

#include <boost/test/unit_test.hpp>

#include <string>

using baton::config::kMaxFileBytes;
using baton::config::parse_file;

namespace {

// The error parse_file throws for a file of `content`, or "" when it parses.
std::string error_of(const std::string& content) {
  const baton::test::TempDir dir;
  dir.write("config.toml", content);
  try {
    (void)parse_file(dir.path / "config.toml");
  } catch (const baton::error::InvalidInput& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// "x.a.a.a… = 1" (or "[x.a.a.a…]") of exactly `bytes` bytes: a table nested a level for
// every two bytes.
std::string dotted(std::size_t bytes, bool header) {
  const std::string head = header ? "[x" : "x", tail = header ? "]\n" : " = 1\n";
  std::string text = head;
  while (text.size() + 2 + tail.size() <= bytes) text += ".a";
  if (text.size() + tail.size() < bytes) text += std::string(bytes - text.size() - tail.size(), ' ');
  return text + tail;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(toml_file)

BOOST_AUTO_TEST_CASE(a_file_past_16_KiB_is_refused_before_it_is_parsed) {
  // 1 MB of dotted keys overflows toml++ 3.3's stack (it recurses once a level): refused
  // for its size, not parsed.
  const std::string megabyte = error_of(dotted(1 << 20, false));
  BOOST_TEST(megabyte == "larger than 16 KiB, where a configuration takes a few KB");
  BOOST_TEST(has(error_of(dotted(kMaxFileBytes + 1, true)), "larger than 16 KiB"));
  // 1 MB of ordinary keys is refused the same way.
  std::string keys;
  for (int i = 0; keys.size() <= (1u << 20); ++i) keys += "key" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  BOOST_TEST(has(error_of(keys), "larger than 16 KiB"));
}

BOOST_AUTO_TEST_CASE(dotted_keys_and_table_headers_as_deep_as_16_KiB_allows_are_read_without_overflow) {
  // The deepest nesting the size allows: 8 190 levels, about 2 MB of toml++'s stack.
  BOOST_TEST(dotted(kMaxFileBytes, false).size() == kMaxFileBytes);
  BOOST_TEST(error_of(dotted(kMaxFileBytes, false)) == "");
  BOOST_TEST(error_of(dotted(kMaxFileBytes, true)) == "");
}

BOOST_AUTO_TEST_CASE(arrays_and_inline_tables_nested_past_256_are_refused_naming_the_line) {
  // Finding 4: a thousand `[` overflowed toml11's stack.
  const std::string arrays = error_of("a = 1\n\nx = " + std::string(1000, '[') + "\n");
  BOOST_TEST(has(arrays, "exceeded maximum nested value depth of 256"), arrays);
  BOOST_TEST(has(arrays, "(line 3, column "), arrays);
  std::string tables = "x = ";
  for (int i = 0; i < 300; ++i) tables += "{a=";
  BOOST_TEST(has(error_of(tables + "\n"), "exceeded maximum nested value depth of 256"));
  BOOST_TEST(error_of("x = " + std::string(256, '[') + std::string(256, ']') + "\n") == "");
  // Brackets in strings and comments nest nothing.
  BOOST_TEST(error_of("# " + std::string(1000, '[') + "\nnote = \"" + std::string(1000, '[') + "\"\nmulti = '''\n" +
                      std::string(1000, '{') + "\n'''\n") == "");
  // Nor do they in a multi-line string that a quote inside does not end.
  BOOST_TEST(error_of("a = '''it's " + std::string(1000, '[') + "'''\nb = \"\"\"say \"" + std::string(1000, '[') +
                      "\"\"\"\"\n") == "");
}

BOOST_AUTO_TEST_CASE(integers_past_64_bits_are_refused_naming_the_line_and_the_limits_are_read) {
  // Finding 5: toml11 overflowed a signed integer on a binary integer's 63rd digit.
  const std::string binary = error_of("a = 1\nx = 0b" + std::string(64, '1') + "\n");
  BOOST_TEST(has(binary, "is not representable in 64 bits (line 2, column "), binary);
  BOOST_TEST(has(error_of("x = 9223372036854775808\n"), "not representable in 64 bits"));
  BOOST_TEST(has(error_of("x = -9223372036854775809\n"), "not representable in 64 bits"));
  BOOST_TEST(has(error_of("x = 0x1_0000_0000_0000_0000\n"), "not representable in 64 bits"));
  BOOST_TEST(has(error_of("x = 0o2000000000000000000000\n"), "not representable in 64 bits"));
  BOOST_TEST(has(error_of("x = " + std::string(200, '9') + "\n"), "(line 1, column "));
  BOOST_TEST(has(error_of("x = 1e999\n"), "(line 1, column "));
  // The limits themselves, and leading zeros however many, are numbers.
  BOOST_TEST(error_of("a = 9223372036854775807\nb = -9223372036854775808\nc = 0b" + std::string(63, '1') + "\nd = 0b" +
                      std::string(70, '0') + "1\ne = 0x7fff_ffff_ffff_ffff\n") == "");
}

BOOST_AUTO_TEST_CASE(bytes_that_are_not_utf8_are_refused_naming_the_line) {
  // Finding 2: toml11 read past its buffer reporting them.
  const std::string in_string = error_of("a = 1\nb = \"\xff\xfe\"\n");
  BOOST_TEST(in_string == "Encountered invalid utf-8 sequence (line 2, column 5)");
  BOOST_TEST(has(error_of("a = 'x\xc0\xaf'\n"), "invalid utf-8"));       // overlong '/'
  BOOST_TEST(has(error_of("a = \"\xed\xa0\x80\"\n"), "invalid utf-8"));  // a surrogate
  BOOST_TEST(has(error_of("a = \"\xe2\x82"), "incomplete utf-8"));       // cut short at the end
  BOOST_TEST(has(error_of("# \xff\na = 1\n"), "invalid utf-8"));         // in a comment
  BOOST_TEST(has(error_of("a = 1\n\xc3\x28 = 2\n"), "invalid utf-8"));   // in a key
  BOOST_TEST(has(error_of(std::string("a = 1\0\n", 7)), "(line 1, column "));
}

BOOST_AUTO_TEST_CASE(a_syntax_error_is_one_line_with_its_line_and_column) {
  const std::string error = error_of("a = 1\nb = [1, 2\nc = 3\n");
  BOOST_TEST(has(error, "(line 3, column "), error);
  BOOST_TEST(!has(error, "\n"), error);
}

BOOST_AUTO_TEST_CASE(a_file_that_cannot_be_read_says_so) {
  const baton::test::TempDir dir;
  try {
    (void)parse_file(dir.path / "absent.toml");
    BOOST_FAIL("an absent file was read");
  } catch (const baton::error::InvalidInput& e) {
    BOOST_TEST(std::string(e.what()) == "cannot be read");
  }
}

BOOST_AUTO_TEST_SUITE_END()
