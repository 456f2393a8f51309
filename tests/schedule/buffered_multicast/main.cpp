#define BOOST_TEST_MODULE buffered_multicast
#include <boost/test/unit_test.hpp>
