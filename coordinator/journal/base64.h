// Base64 (RFC 4648, with padding) for etcd's JSON gateway, which carries keys and values
// as base64 strings (docs/ha.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace baton::journal {

std::string base64_encode(std::string_view bytes);
// Nothing when `text` is not padded base64 of the standard alphabet.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace baton::journal
