// The validator must reject every kind of broken schedule.
#include "coordinator/schedule/kpbs/validator.h"

#include <boost/test/unit_test.hpp>

#include <string>

namespace kpbs = baton::schedule::kpbs;

namespace {

const kpbs::Matrix kMatrix{{2, 1}, {1, 2}};

// A valid schedule of kMatrix for k = 2: two steps.
kpbs::Schedule good() {
  kpbs::Schedule s;
  s.steps.push_back({{{0, 0, 2}, {1, 1, 2}}, 2});
  s.steps.push_back({{{0, 1, 1}, {1, 0, 1}}, 1});
  return s;
}

bool rejects(const kpbs::Schedule& s, const std::string& what, int k = 2) {
  const kpbs::Validation v = kpbs::validate(kMatrix, k, 1.0, s);
  for (const auto& e : v.errors) {
    if (e.find(what) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(validator)

BOOST_AUTO_TEST_CASE(accepts_a_valid_schedule_and_recomputes_its_cost) {
  const kpbs::Validation v = kpbs::validate(kMatrix, 2, 1.0, good());
  BOOST_TEST(v.ok());
  BOOST_TEST(v.cost == 1 + 2 + 1 + 1.0);
}

BOOST_AUTO_TEST_CASE(rejects_broken_schedules) {
  kpbs::Schedule s = good();
  BOOST_TEST(rejects(s, "more than k", 1));

  s = good();
  s.steps[1].transfers[1].src = 0;  // sender 0 twice, and pair 0->0 overpaid
  BOOST_TEST(rejects(s, "sender 0 in two transfers"));
  BOOST_TEST(rejects(s, "pair 1->0: moved 0 of 1"));

  s = good();
  s.steps[1].transfers[0].dst = 0;
  s.steps[1].transfers[1].dst = 0;
  BOOST_TEST(rejects(s, "receiver 0 in two transfers"));

  s = good();
  s.steps[0].transfers[0].amount = 1.5;
  BOOST_TEST(rejects(s, "pair 0->0: moved 1.5 of 2"));

  s = good();
  s.steps[0].duration = 1;
  BOOST_TEST(rejects(s, "duration"));

  s = good();
  s.steps[0].transfers[0].dst = 7;
  BOOST_TEST(rejects(s, "outside the matrix"));

  s = good();
  s.steps[0].transfers[0].amount = -2;
  BOOST_TEST(rejects(s, "amount -2"));

  s = good();
  s.steps.push_back({});
  BOOST_TEST(rejects(s, "no transfer"));

  const kpbs::Matrix sparse{{2, 0}, {1, 2}};
  const kpbs::Validation v = kpbs::validate(sparse, 2, 1.0, good());
  BOOST_TEST(!v.ok());
  BOOST_TEST(v.errors.front().find("nothing to send") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(kpbs_rules_off_only_checks_the_accounting) {
  kpbs::Schedule s;
  s.steps.push_back({{{0, 0, 2}, {0, 1, 1}, {1, 0, 1}, {1, 1, 2}}, 2});
  BOOST_TEST(!kpbs::validate(kMatrix, 2, 1.0, s).ok());
  BOOST_TEST(kpbs::validate(kMatrix, 2, 1.0, s, {.kpbs_rules = false}).ok());
}

BOOST_AUTO_TEST_SUITE_END()
