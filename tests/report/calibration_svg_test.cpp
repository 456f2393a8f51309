// The calibration chart and the status page's calibration section, read back by
// independent parsers: well-formed, with the figures the calibration's JSON holds, the
// points of its curve and size series, and escaped text; a calibration without a result
// has no chart, said so.
#include "coordinator/report/calibration_svg.h"
#include "coordinator/report/status_page.h"
#include "error/error.h"
#include "tests/report/markup_probe.h"

#include <boost/test/unit_test.hpp>

namespace br = baton::report;
using Json = nlohmann::ordered_json;

namespace {

// As GET /v1/calibrations/3 answers, read through the typed report.
br::CalibrationReport sample() {
  return br::parse_calibration_report(Json::parse(R"({"id": "3", "state": "done", "error": "",
    "requested": "2026-11-24T09:59:50Z", "finished": "2026-11-24T10:00:00Z", "seconds": 9.5,
    "d": 1700000, "D": 11900000, "beta": 0.0062, "k": 7, "beta_one_flow": 0.0058, "saturated": true,
    "probe_steps": 25, "probe_bytes": 61200000, "flow_seconds": 0.4,
    "senders": ["s1", "s2"], "receivers": ["r1", "r2"],
    "nodes": [{"node": "s1", "role": "sender", "rate": 1710000}],
    "curve": [{"flows": 1, "bytes": 680000, "seconds": 0.406, "rate": 1700000},
              {"flows": 2, "bytes": 1360000, "seconds": 0.406, "rate": 3400000},
              {"flows": 3, "bytes": 2040000, "seconds": 0.5, "rate": 4130000}],
    "sizes": [{"flows": 1, "bytes": 42500, "seconds": 0.031}, {"flows": 1, "bytes": 680000, "seconds": 0.406}]})"));
}

br::CalibrationReport running(const std::string& id) {
  return br::CalibrationReport{.id = id,
                               .state = br::CalibrationState::running,
                               .error = "",
                               .requested = "2026-11-24T09:59:50Z",
                               .finished = "",
                               .seconds = 0,
                               .senders = {"s1"},
                               .receivers = {"r1"},
                               .progress = br::ProbeProgress{.phase = "curve", .steps = 3},
                               .result = std::nullopt};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(calibration_svg)

BOOST_AUTO_TEST_CASE(the_chart_is_well_formed_and_shows_the_figures_and_points) {
  const std::string svg = br::calibration_svg(sample());
  const auto probe = baton::test::inspect_svg(svg);
  BOOST_TEST(!probe.contains("error"), probe.dump());
  BOOST_TEST(probe["root"].get<std::string>().find("svg") != std::string::npos);
  const std::string texts = probe["texts"].dump();
  BOOST_TEST(texts.find("Calibration 3: d 1.70 MB/s, D 11.90 MB/s, k 7") != std::string::npos, texts);
  BOOST_TEST(texts.find("k = 7") != std::string::npos);
  BOOST_TEST(svg.find("7 flows: \u03b2 = 6.2 ms") != std::string::npos);
  // One dot per curve point and per size step.
  std::size_t dots = 0;
  for (std::size_t at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1)) ++dots;
  BOOST_TEST(dots == 3u + 2u);
}

BOOST_AUTO_TEST_CASE(a_calibration_without_a_result_has_no_chart) {
  BOOST_CHECK_EXCEPTION(br::calibration_svg(running("4")), baton::error::InvalidInput,
                        [](const baton::error::InvalidInput& e) {
                          return std::string(e.what()) == "calibration 4 has no result yet (state running)";
                        });
  const std::string html = br::calibration_section_html(running("4<b>"));
  BOOST_TEST(html.find("4&lt;b&gt;") != std::string::npos);
  BOOST_TEST(html.find("<b>") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_status_page_shows_the_newest_calibration) {
  br::StatusPage page;
  page.coordinator = "idle";
  page.agents = Json{{"agents", Json::array()}};
  page.jobs = Json{{"jobs", Json::array()}};
  page.calibration = sample();
  const auto probe = baton::test::inspect_html(br::status_page_html(page));
  const std::string text = probe["text"].get<std::string>();
  BOOST_TEST(text.find("Calibration 3") != std::string::npos, text);
  BOOST_TEST(text.find("11.90 MB/s") != std::string::npos);
  BOOST_TEST(probe["tags"].value("svg", 0) == 1);
}

BOOST_AUTO_TEST_SUITE_END()
