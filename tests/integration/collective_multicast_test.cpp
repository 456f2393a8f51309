// Multicasts and buffered multicasts end to end (docs/collectives.md): real agents on
// loopback with unequal declared rates run one job of several messages with every
// algorithm; every destination's bytes are compared with the source's range, and the report
// must account for every copy once.
#include "tests/integration/collective_cluster.h"
#include "tests/integration/collective_report.h"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <map>

using namespace baton::test;

namespace {

struct Message {
  std::string source, file;
  std::optional<std::uint64_t> offset, length;  // absent: the whole file
  std::vector<std::string> destinations;
  std::string dst_file;
};

// The messages' sources: files of unequal sizes on slow and fast nodes.
struct Sources {
  std::map<std::pair<std::string, std::string>, std::string> bytes;  // (node, file) -> content

  void write(CollectiveCluster& c, const std::string& node, const std::string& file, std::size_t size, unsigned seed) {
    bytes[{node, file}] = write_random_file(c.cluster.root(node) / file, size, seed);
  }
  std::string range(const Message& m) const {
    const std::string& all = bytes.at({m.source, m.file});
    return all.substr(m.offset.value_or(0), m.length.value_or(all.size() - m.offset.value_or(0)));
  }
};

Json message_json(const Message& m) {
  Json j{{"source", m.source}, {"file", m.file}, {"destinations", m.destinations}, {"dst_file", m.dst_file}};
  if (m.offset) j["offset"] = *m.offset;
  if (m.length) j["length"] = *m.length;
  return j;
}

// Removes what an earlier job wrote, so that a stale file cannot pass for this job's.
void clear_destinations(CollectiveCluster& c, const std::vector<Message>& messages) {
  for (const Message& m : messages) {
    for (const std::string& node : c.nodes) std::filesystem::remove(c.cluster.root(node) / m.dst_file);
  }
}

// Each destination holds exactly the source's range, no other node holds the file, and the
// report's sends add up to one copy per destination (a relay forwards what it received;
// nothing is sent twice).
void check_delivery(CollectiveCluster& c, const Sources& sources, const std::vector<Message>& messages,
                    const Json& done, const std::string& what, bool one_port = true) {
  std::uint64_t copies = 0;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const Message& m = messages[i];
    const std::string expected = sources.range(m);
    copies += expected.size() * m.destinations.size();
    for (const std::string& node : c.nodes) {
      const std::filesystem::path path = c.cluster.root(node) / m.dst_file;
      const bool destination = std::find(m.destinations.begin(), m.destinations.end(), node) != m.destinations.end();
      if (!destination) {
        BOOST_TEST(!std::filesystem::exists(path), what << ": message " << i << " written on " << node);
        continue;
      }
      const std::string got = read_file(path);
      BOOST_TEST(got.size() == expected.size(), what << ": message " << i << " on " << node);
      BOOST_TEST((got == expected), what << ": message " << i << "'s bytes on " << node);
    }
  }
  if (const std::optional<std::vector<ReportTask>> tasks = tasks_or_error(done, what)) {
    std::uint64_t sent = 0;
    for (const ReportTask& t : *tasks) sent += t.kind == "send" ? t.bytes : 0;
    BOOST_TEST(sent == copies, what << ": bytes sent in the report");
    const std::optional<std::size_t> sends_at_once =
        one_port ? std::optional(done.at("report").at("k").get<std::size_t>()) : std::nullopt;
    for (const std::string& problem : send_time_problems(*tasks, sends_at_once)) BOOST_ERROR(what << ": " << problem);
  }
  BOOST_TEST(done.at("report").value("measured_seconds", 0.0) > 0, what);
  BOOST_TEST(done.at("report").value("predicted_seconds", 0.0) > 0, what);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(collective_multicast)

BOOST_AUTO_TEST_CASE(every_multicast_algorithm_delivers_every_message_to_every_destination) {
  CollectiveCluster c;
  Sources sources;
  sources.write(c, "n0", "m0.bin", 180'000, 1);  // a slow source to everyone
  sources.write(c, "n5", "m1.bin", 400'000, 2);  // a fast source, a range of it
  sources.write(c, "n3", "m2.bin", 150'008, 3);  // a middle one, at an odd offset
  const std::vector<Message> messages{
      {"n0", "m0.bin", {}, {}, {"n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8"}, "r0.bin"},
      {"n5", "m1.bin", 1000, 200'000, {"n1", "n2", "n7"}, "r1.bin"},
      {"n3", "m2.bin", 7, 150'001, {"n8", "n0", "n6", "n4"}, "r2.bin"}};
  Json multicasts = Json::array();
  for (const Message& m : messages) multicasts.push_back(message_json(m));
  for (const std::string algorithm : {"wrp", "fef", "ecf", "wr", "eaf", "rr", "rrs", "ecfp", "eafp", "rrp", "rrsp",
                                      "flat", "binomial", "pipelined-tree"}) {
    BOOST_TEST_CONTEXT("multicast " << algorithm) {
      clear_destinations(c, messages);
      const std::optional<Json> ran =
          c.run({{"kind", "multicast"}, {"nodes", c.nodes}, {"algorithm", algorithm}, {"multicasts", multicasts}});
      if (!ran) continue;
      const Json& done = *ran;
      check_delivery(c, sources, messages, done, std::string("multicast ") + algorithm);
      if (algorithm != std::string("flat") && algorithm != std::string("binomial") &&
          algorithm != std::string("pipelined-tree")) {
        BOOST_TEST(done.at("report").contains("model_seconds"), algorithm);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(buffered_multicasts_deliver_in_rounds_within_the_buffers) {
  CollectiveCluster c({20'000'000, 20'000'000, 50'000'000, 50'000'000, 50'000'000, 50'000'000});
  Sources sources;
  sources.write(c, "n0", "a.bin", 120'000, 11);
  sources.write(c, "n1", "b.bin", 90'000, 12);
  sources.write(c, "n2", "c.bin", 60'000, 13);
  sources.write(c, "n3", "d.bin", 30'001, 14);
  sources.write(c, "n4", "e.bin", 75'000, 15);
  // Destinations overlap, so that each receiver has more messages than buffers.
  const std::vector<Message> messages{{"n0", "a.bin", {}, {}, {"n1", "n2", "n3"}, "ra.bin"},
                                      {"n1", "b.bin", {}, {}, {"n2", "n3", "n4", "n5"}, "rb.bin"},
                                      {"n2", "c.bin", 100, 50'000, {"n3", "n5"}, "rc.bin"},
                                      {"n3", "d.bin", {}, {}, {"n0", "n2", "n5"}, "rd.bin"},
                                      {"n4", "e.bin", {}, {}, {"n0", "n3"}, "re.bin"}};
  Json list = Json::array();
  for (const Message& m : messages) list.push_back(message_json(m));
  for (const std::string algorithm : {"ordered-coloring", "coloring"}) {
    for (const int buffers : {1, 2}) {
      BOOST_TEST_CONTEXT("buffered-multicast " << algorithm << " buffers " << buffers) {
        clear_destinations(c, messages);
        const std::optional<Json> ran = c.run({{"kind", "buffered-multicast"},
                                               {"nodes", c.nodes},
                                               {"buffers", buffers},
                                               {"algorithm", algorithm},
                                               {"messages", list}});
        if (!ran) continue;
        const Json& done = *ran;
        check_delivery(c, sources, messages, done, "buffered-multicast " + algorithm, false);
        // A round is a step, and a node receives at most `buffers` messages in one.
        for (const Json& step : done.at("report").at("steps")) {
          std::map<std::string, int> received;
          for (const Json& t : step.value("tasks", Json::array())) {
            if (t.value("kind", "") == "send") ++received[t.value("peer", "")];
          }
          for (const auto& [node, count] : received) {
            BOOST_TEST(count <= buffers,
                       node << " receives " << count << " messages in step " << step.value("index", 0));
          }
        }
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
