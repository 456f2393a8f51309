#define BOOST_TEST_MODULE error
#include <boost/test/unit_test.hpp>
