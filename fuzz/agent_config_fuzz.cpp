// baton-agent's TOML configuration (agent/config.h) from fuzzed bytes (config_file.h).
// baton::error::InvalidInput naming the file is the documented outcome of a bad file.
#include <stdexcept>

#include "agent/config.h"
#include "error/error.h"
#include "fuzz/config_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)baton::agent::load_agent_config(baton::fuzz::config_file(data, size));
  } catch (const baton::error::InvalidInput&) {
  }
  return 0;
}
