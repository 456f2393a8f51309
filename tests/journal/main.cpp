#define BOOST_TEST_MODULE journal
#include <boost/test/unit_test.hpp>

#include <csignal>

namespace {

// EtcdClient::abandon shuts down the sockets of requests in flight, and a request not yet
// written then fails with EPIPE and a SIGPIPE that would end the process: baton-coordinator
// ignores the signal (systemd/daemon_process.cpp, start_daemon), and so do these tests.
struct BrokenPipesIgnored {
  BrokenPipesIgnored() { BOOST_TEST_REQUIRE((std::signal(SIGPIPE, SIG_IGN) != SIG_ERR)); }
};
BOOST_TEST_GLOBAL_FIXTURE(BrokenPipesIgnored);

}  // namespace
