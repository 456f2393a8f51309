#define BOOST_TEST_MODULE kpbs_exact
#include <boost/test/unit_test.hpp>
