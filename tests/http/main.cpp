// The Boost.Test entry point of this folder's suites. They are different modules, so each
// names its own: baton_add_test(... MODULE name) defines BATON_TEST_MODULE.
#ifndef BATON_TEST_MODULE
#error "baton_add_test needs MODULE for a suite whose main.cpp is shared (cmake/BatonTest.cmake)"
#endif
#define BOOST_TEST_MODULE BATON_TEST_MODULE
#include <boost/test/unit_test.hpp>
