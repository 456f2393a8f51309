// Reads the SVG and HTML our renderers write with independent parsers (Python's
// xml.etree and html.parser, run as a process), so the tests check what a parser sees,
// not our own string handling.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace baton::test {

// nullopt when /usr/bin/python3 is missing (the caller skips, saying so).
// SVG: {"root": tag, "bars": [{"class", "node", "step", "x", "y", "width"}], "texts": [...]},
// or {"error": "..."} when the document is not well-formed XML.
std::optional<nlohmann::json> inspect_svg(const std::string& svg);
// HTML: {"tags": {tag: count}, "classes": {class: count}, "text": all text, "links": [href...]}.
std::optional<nlohmann::json> inspect_html(const std::string& html);

inline constexpr const char* kPython = "/usr/bin/python3";

}  // namespace baton::test
