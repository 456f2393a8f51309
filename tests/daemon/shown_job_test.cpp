// Which job a status page shows (coordinator/daemon/shown_job.h), and what it shows when
// the address names none.
#include "coordinator/daemon/shown_job.h"
#include "coordinator/daemon/request_error.h"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <string>
#include <vector>

using baton::coordinator::RequestError;
using baton::coordinator::RequestFailure;
using baton::coordinator::show_job;
using baton::report::JobReport;
using baton::report::StatusPage;

namespace {

// A page listing jobs 3 and 4; report_of knows only those and records what it was asked.
struct ShownJobFixture {
  StatusPage page;
  std::vector<std::uint64_t> asked;
  ShownJobFixture() { page.jobs = {{"jobs", {{{"id", "3"}}, {{"id", "4"}}}}}; }
  int show(const std::string* id) {
    return show_job(page, id, [this](std::uint64_t number) {
      asked.push_back(number);
      if (number != 3 && number != 4) throw RequestError(RequestFailure::not_found, "no job " + std::to_string(number));
      JobReport job;
      job.id = std::to_string(number);
      return job;
    });
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(without_an_id_the_newest_listed_job_is_shown) {
  ShownJobFixture f;
  BOOST_TEST(f.show(nullptr) == 200);
  BOOST_TEST_REQUIRE(f.page.job.has_value());
  BOOST_TEST(f.page.job->id == "4");
  BOOST_TEST(f.page.error.empty());
}

BOOST_AUTO_TEST_CASE(the_job_the_address_names_is_shown) {
  ShownJobFixture f;
  const std::string id = "3";
  BOOST_TEST(f.show(&id) == 200);
  BOOST_TEST_REQUIRE(f.page.job.has_value());
  BOOST_TEST(f.page.job->id == "3");
}

BOOST_AUTO_TEST_CASE(an_unknown_or_malformed_id_shows_why_with_404) {
  for (const std::string id : {"12", "x", "-1"}) {
    ShownJobFixture f;
    BOOST_TEST(f.show(&id) == 404, id);
    BOOST_TEST(!f.page.job.has_value(), id);
    BOOST_TEST(f.page.error == "no job " + id, id);
  }
}

BOOST_AUTO_TEST_CASE(no_jobs_listed_shows_none_and_is_no_error) {
  ShownJobFixture f;
  f.page.jobs = {{"jobs", nlohmann::ordered_json::array()}};
  BOOST_TEST(f.show(nullptr) == 200);
  BOOST_TEST(!f.page.job.has_value());
  BOOST_TEST(f.page.error.empty());
  BOOST_TEST(f.asked.empty());
}
