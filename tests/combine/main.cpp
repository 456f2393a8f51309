#define BOOST_TEST_MODULE combine
#include <boost/test/unit_test.hpp>
