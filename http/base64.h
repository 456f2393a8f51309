// Base64 (RFC 4648 section 4: the standard alphabet, with padding), for what HTTP carries
// in it: etcd's JSON gateway's keys and values (docs/ha.md) and the credentials of HTTP
// Basic authentication (coordinator/daemon/http_auth.h).
#pragma once

#include <string>
#include <string_view>

namespace baton::http {

std::string base64_encode(std::string_view bytes);
// The bytes `text` encodes. Throws std::invalid_argument, one line naming what is wrong,
// when `text` is not padded base64 of the standard alphabet (a length that is not a
// multiple of 4, a character outside the alphabet, '=' anywhere but at the end).
std::string base64_decode(std::string_view text);

}  // namespace baton::http
