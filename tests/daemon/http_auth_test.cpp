// The token check of the coordinator's HTTP API (coordinator/daemon/http_auth.h): Bearer
// for programs, Basic with the token as password for browsers.
#include "coordinator/daemon/http_auth.h"

#include <boost/test/unit_test.hpp>

using baton::coordinator::carries_token;

BOOST_AUTO_TEST_CASE(bearer_and_basic_with_the_token_as_password_are_accepted) {
  BOOST_TEST(carries_token("Bearer s3cret", "s3cret"));
  BOOST_TEST(carries_token("Basic YmF0b246czNjcmV0", "s3cret"));  // base64("baton:s3cret"), by coreutils' base64
  BOOST_TEST(carries_token("Basic OnMzY3JldA==", "s3cret"));      // ":s3cret": any user name, even none
}

BOOST_AUTO_TEST_CASE(anything_else_is_refused) {
  BOOST_TEST(!carries_token("", "s3cret"));
  BOOST_TEST(!carries_token("Bearer s3cre", "s3cret"));
  BOOST_TEST(!carries_token("Basic YmF0b246d3Jvbmc=", "s3cret"));  // baton:wrong
  BOOST_TEST(!carries_token("Basic czNjcmV0", "s3cret"));          // "s3cret": no colon
  BOOST_TEST(!carries_token("Basic ???", "s3cret"));
  BOOST_TEST(!carries_token("Basic YmF0b246czNjcmV0YQ==", "s3cret"));  // baton:s3creta
  BOOST_TEST(!carries_token("Basic YmF0b246czNjcmV", "s3cret"));       // cut short: not whole quanta
  BOOST_TEST(!carries_token("Basic ", "s3cret"));
  BOOST_TEST(!carries_token("Digest s3cret", "s3cret"));
}
