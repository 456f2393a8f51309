// A loopback TCP port that nothing listens on: bound by the kernel's choice, then closed.
// Good for "a coordinator that is not there" and for configuring a daemon's port ahead of
// time (another process could take it in between; tests on one machine accept that).
#pragma once

namespace baton::test {

int unused_loopback_port();

}  // namespace baton::test
