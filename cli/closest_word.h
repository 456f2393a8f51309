// The word a typo was probably meant to be: batonctl's "unknown command 'sumbit'" goes on
// "(did you mean 'submit'?)".
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace baton::cli {

// Edits between two words: insertions, deletions, substitutions and swaps of two
// neighbouring letters, each counting 1 (the optimal string alignment distance).
std::size_t edit_distance(const std::string& a, const std::string& b);

// The candidate nearest `word`, when it is near enough to be what was meant: at most one
// edit for words of up to four letters, two for longer ones; nullopt when none is, or
// when two candidates are equally near (a guess between them would be a coin toss).
std::optional<std::string> closest_word(const std::string& word, const std::vector<std::string>& candidates);

// " (did you mean 'candidate'?)" with the closest word between `quote`s, or "" when none is
// near: what every refusal of an unknown name appends.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates, char quote = '\'');

}  // namespace baton::cli
