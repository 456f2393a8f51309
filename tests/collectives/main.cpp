#define BOOST_TEST_MODULE collectives
#include <boost/test/unit_test.hpp>
