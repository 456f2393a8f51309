// Refusal: a check's one line; add_clause joins the clauses of several nodes with "; ".
#include "error/refusal.h"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>

namespace baton::error {
namespace {

BOOST_AUTO_TEST_CASE(a_check_answers_its_line_as_it_is) {
  const auto check = [](int k) -> std::optional<Refusal> {
    if (k < 1) return "k is " + std::to_string(k) + ", must be at least 1";
    if (k > 64) return "k is too large";
    return std::nullopt;
  };
  BOOST_TEST(!check(2).has_value());
  BOOST_TEST(check(0)->reason == "k is 0, must be at least 1");
  BOOST_TEST(check(65)->reason == "k is too large");
}

BOOST_AUTO_TEST_CASE(no_clause_is_no_refusal) {
  std::optional<Refusal> refusal;
  add_clauses(refusal, std::optional<Refusal>{});
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
  add_clauses(refusal, other);
  BOOST_TEST(refusal->reason == "agent r1 refused the plan: no space; agent r2 is silent; agent r3 is silent");
}

}  // namespace
}  // namespace baton::error
