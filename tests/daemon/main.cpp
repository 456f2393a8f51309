#define BOOST_TEST_MODULE coordinator_daemon
#include <boost/test/unit_test.hpp>
