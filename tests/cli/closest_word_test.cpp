// The typo guesses (cli/closest_word.h): the distance against textbook values, and when a
// guess is offered.
#include "cli/closest_word.h"

#include <boost/test/unit_test.hpp>

using baton::cli::closest_word;
using baton::cli::edit_distance;

BOOST_AUTO_TEST_SUITE(closest_word_guess)

BOOST_AUTO_TEST_CASE(the_distance_counts_insertions_deletions_substitutions_and_swaps) {
  BOOST_TEST(edit_distance("kitten", "sitting") == 3u);  // Levenshtein's textbook example
  BOOST_TEST(edit_distance("", "abc") == 3u);
  BOOST_TEST(edit_distance("submit", "submit") == 0u);
  BOOST_TEST(edit_distance("sumbit", "submit") == 1u);  // a swap of neighbours is one edit
  // Optimal string alignment: a swapped pair is not edited again ("ca" -> "abc" is 3, where
  // the unrestricted Damerau distance would be 2).
  BOOST_TEST(edit_distance("ca", "abc") == 3u);
  BOOST_TEST(edit_distance("abcdef", "badcfe") == 3u);                    // three swaps
  BOOST_TEST(edit_distance(std::string(100'000, 'a'), "ab") == 99'999u);  // rows as long as b
}

BOOST_AUTO_TEST_CASE(a_guess_is_offered_only_when_it_is_near_and_unique) {
  const std::vector<std::string> commands{"plan", "submit", "status", "jobs", "agents", "cancel", "watch"};
  BOOST_TEST(closest_word("sumbit", commands).value_or("") == "submit");
  BOOST_TEST(closest_word("statsu", commands).value_or("") == "status");
  BOOST_TEST(closest_word("jbos", commands).value_or("") == "jobs");  // four letters: one edit
  BOOST_TEST(!closest_word("jbso", commands));                        // two edits on four letters
  BOOST_TEST(!closest_word("frobnicate", commands));
  BOOST_TEST(!closest_word("caw", {"cat", "car"}));  // equally near: no coin toss
  BOOST_TEST(!closest_word("x", {}));
  BOOST_TEST(!closest_word(std::string(1'000'000, 'k'), commands));  // a huge word is no typo, and cheap
}

BOOST_AUTO_TEST_CASE(the_guess_is_said_in_the_caller_s_quotes_or_not_at_all) {
  BOOST_TEST(baton::cli::did_you_mean("sumbit", {"submit", "status"}) == " (did you mean 'submit'?)");
  BOOST_TEST(baton::cli::did_you_mean("algoritm", {"algorithm"}, '"') == " (did you mean \"algorithm\"?)");
  BOOST_TEST(baton::cli::did_you_mean("frobnicate", {"submit"}) == "");
}

BOOST_AUTO_TEST_SUITE_END()
