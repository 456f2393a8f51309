// The programs a test runs that scripts/setup.sh installs (etcd, promtool, chromium,
// python3, ...), found on PATH. A test that needs one is registered with NEEDS in CMake
// (cmake/BatonTest.cmake), and tests/support/require_tools.sh reports it skipped to CTest
// (exit 77, or a failure under CI=true) when the tool is missing: inside the test, a tool
// that is not there is an error, never a quiet pass.
#pragma once

#include <string>

namespace baton::test {

// The path of `name` on PATH; std::runtime_error naming it when there is none.
std::string tool_path(const std::string& name);

// Whether this is CI's run (CI=true, as .ci/run sets): CI runs scripts/setup.sh first, so
// whatever it installs (the tools above, libfabric's providers) must be there, and a test
// that finds one missing fails instead of skipping.
bool under_ci();

}  // namespace baton::test
