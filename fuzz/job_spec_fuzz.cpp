// A job's JSON as the coordinator's API receives it (coordinator/daemon/job_spec.h).
// json::InputError is the documented outcome of bad input.
#include <string>

#include "coordinator/daemon/job_spec.h"
#include "coordinator/json/input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)baton::coordinator::parse_job_spec(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const baton::json::InputError&) {
  }
  return 0;
}
