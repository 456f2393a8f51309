// Refusal: a check's one line; add_clause joins the clauses of several nodes with "; ".
#include "error/refusal.h"

#include <boost/test/unit_test.hpp>

#include <optional>

namespace baton::error {
namespace {

BOOST_AUTO_TEST_CASE(no_clause_is_no_refusal) {
  std::optional<Refusal> refusal;
  add_clause(refusal, std::optional<Refusal>{});
  BOOST_TEST(!refusal.has_value());
}

BOOST_AUTO_TEST_CASE(clauses_join_in_the_order_added) {
  std::optional<Refusal> refusal;
  add_clause(refusal, "agent r1 refused the plan: no space");
  BOOST_REQUIRE(refusal.has_value());
  BOOST_TEST(refusal->reason == "agent r1 refused the plan: no space");
  std::optional<Refusal> other;
  add_clause(other, "agent r2 is silent");
  add_clause(other, "agent r3 is silent");
  add_clause(refusal, other);
  BOOST_TEST(refusal->reason == "agent r1 refused the plan: no space; agent r2 is silent; agent r3 is silent");
}

}  // namespace
}  // namespace baton::error
