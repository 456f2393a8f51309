#define BOOST_TEST_MODULE coupling
#include <boost/test/unit_test.hpp>
