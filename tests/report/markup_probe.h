// Reads the SVG and HTML our renderers write with independent parsers (Python's
// xml.etree and html.parser, run as a process), so the tests check what a parser sees,
// not our own string handling.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace baton::test {

// python3 from PATH (tests/support/tools.h): CMake's NEEDS skips a test without it.
// SVG: {"root": tag, "bars": [{"class", "node", "step", "x", "y", "width"}], "texts": [...]},
// or {"error": "..."} when the document is not well-formed XML.
nlohmann::json inspect_svg(const std::string& svg);
// HTML: {"tags": {tag: count}, "classes": {class: count}, "text": all text, "links": [href...]}.
nlohmann::json inspect_html(const std::string& html);

}  // namespace baton::test
