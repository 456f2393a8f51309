#define BOOST_TEST_MODULE calibration
#include <boost/test/unit_test.hpp>
