// EtcdClient::abandon shuts down the sockets of requests in flight, and a request not yet
// written then fails with EPIPE and a SIGPIPE that would end the process: baton-coordinator
// ignores the signal (systemd/daemon_process.cpp, start_daemon), and so do these suites.
#include <boost/test/unit_test.hpp>

#include <csignal>
#include <stdexcept>

namespace {

struct BrokenPipesIgnored {
  BrokenPipesIgnored() {
    if (std::signal(SIGPIPE, SIG_IGN) == SIG_ERR) throw std::runtime_error("cannot ignore SIGPIPE");
  }
};
BOOST_TEST_GLOBAL_FIXTURE(BrokenPipesIgnored);

}  // namespace
