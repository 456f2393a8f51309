// Small helpers for writing SVG and HTML by hand: escaping text that comes from jobs and
// agents, and numbers in a fixed, locale-free form.
#pragma once

#include <string>
#include <string_view>

namespace baton::report {

// `text` with &, <, >, " and ' replaced by entities, and control characters other than
// tab and newlines by "?": safe in element text and quoted attributes of XML and HTML.
std::string escape(std::string_view text);

// `value` with `digits` decimals ("12.50"); NaN and infinities print as "0".
std::string fixed(double value, int digits);

// A byte count in decimal units: "512 B", "1.50 MB".
std::string bytes_text(double bytes);

}  // namespace baton::report
