#define BOOST_TEST_MODULE multicast
#include <boost/test/unit_test.hpp>
