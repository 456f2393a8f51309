#define BOOST_TEST_MODULE kpbs
#include <boost/test/unit_test.hpp>
