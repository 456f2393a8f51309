// Reads an exposition back with an independent parser: the official Prometheus Python
// client's (Debian's python3-prometheus-client), run as a separate process. Returns one
// line per sample, "name{label=value,...} value" with labels sorted, or "error: ...".
#pragma once

#include <string>

namespace baton::test {

std::string parse_exposition(const std::string& text);

}  // namespace baton::test
