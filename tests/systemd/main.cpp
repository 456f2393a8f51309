#define BOOST_TEST_MODULE systemd
#include <boost/test/unit_test.hpp>
