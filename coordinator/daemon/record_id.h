// The one reading of a job's or a calibration's id as the API's paths, the status page and
// a job's "calibration" field give it: decimal digits only, as the coordinator writes
// them ("7", not "7x", " 7", "+7", "-1" or a number past 2^64 - 1).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace baton::coordinator {

// The id `text` spells, or nullopt when it spells none.
std::optional<std::uint64_t> parse_record_id(std::string_view text);

}  // namespace baton::coordinator
