// Envelopes: round trips, and clear refusals for garbage, other versions and unknown types.
#include "protocol/envelope.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/stubs/logging.h>
#include <boost/test/unit_test.hpp>

#include <random>

namespace bp = baton::protocol;

namespace {

bool refused_with(std::string_view payload, const std::string& text) {
  try {
    bp::decode(payload);
  } catch (const bp::ProtocolError& e) {
    return std::string(e.what()).find(text) != std::string::npos;
  }
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(envelope)

BOOST_AUTO_TEST_CASE(a_plan_round_trips) {
  bp::Envelope e;
  bp::Plan* plan = e.mutable_plan();
  plan->set_job("job-1");
  plan->set_k(3);
  bp::Step* step = plan->add_steps();
  step->set_index(0);
  bp::Flow* flow = step->add_flows();
  flow->set_send(true);
  flow->set_peer("b0");
  flow->set_rate(12.5e6);
  bp::Chunk* chunk = flow->add_chunks();
  chunk->set_src_file("in.bin");
  chunk->set_length(1u << 30);
  const bp::Envelope back = bp::decode(bp::encode(e));
  BOOST_TEST(back.version() == bp::kProtocolVersion);
  BOOST_TEST(bp::type_name(back) == "plan");
  BOOST_TEST(back.plan().steps(0).flows(0).chunks(0).length() == (1u << 30));
  BOOST_TEST(back.plan().job() == "job-1");
}

// Every message type the schema defines has its own name in logs and refusals, equal to
// the schema's field name (checked against protobuf's descriptor, not a list of ours).
BOOST_AUTO_TEST_CASE(every_message_type_has_its_schema_name) {
  const google::protobuf::OneofDescriptor* body = bp::Envelope::descriptor()->FindOneofByName("body");
  BOOST_REQUIRE(body != nullptr);
  BOOST_TEST(body->field_count() == 21);
  for (int i = 0; i < body->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* field = body->field(i);
    bp::Envelope e;
    e.GetReflection()->MutableMessage(&e, field);  // selects this member of the oneof
    BOOST_TEST(bp::type_name(e) == field->name());
  }
}

BOOST_AUTO_TEST_CASE(other_versions_are_refused_by_number) {
  bp::Envelope e;
  e.mutable_heartbeat()->set_sequence(1);
  e.set_version(7);
  BOOST_TEST(refused_with(e.SerializeAsString(), "protocol version 7 is not supported"));
}

BOOST_AUTO_TEST_CASE(unknown_message_types_are_refused) {
  bp::Envelope e;
  e.set_version(bp::kProtocolVersion);
  std::string bytes = e.SerializeAsString();
  bytes += std::string("\xfa\x01\x02hi", 5);  // field 31, length-delimited: a type from the future
  BOOST_TEST(refused_with(bytes, "unknown message type"));
}

BOOST_AUTO_TEST_CASE(garbage_never_crashes) {
  BOOST_TEST(refused_with(std::string("\xff\xff\xff\xff\xff", 5), "not a Baton message"));
  const google::protobuf::LogSilencer quiet;  // random bytes make libprotobuf log UTF-8 complaints
  std::mt19937_64 rng(3);
  int refused = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string junk(rng() % 64, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    try {
      bp::decode(junk);
    } catch (const bp::ProtocolError&) {
      ++refused;
    }
  }
  BOOST_TEST(refused > 19000);  // nearly all random bytes are refused; none crash
}

BOOST_AUTO_TEST_SUITE_END()
