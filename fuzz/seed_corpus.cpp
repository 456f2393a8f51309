// Writes the binary seed inputs of the data- and control-plane targets and of the object
// answers with the real encoders (DIR/<target>/seed-*): after a format change, run it on
// the corpora unpacked into DIR, then re-pack them (docs/fuzzing.md, fuzz/corpus.sh).
//   fuzz_seed_corpus DIR
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

#include "protocol/envelope.h"
#include "protocol/frame.h"
#include "security/key_schedule.h"
#include "transport/checksum.h"
#include "transport/frame.h"

namespace {

using namespace baton;
using transport::FrameHeader;
using transport::FrameKind;

std::filesystem::path root;

void write(const std::string& target, const std::string& name, const std::string& bytes) {
  std::filesystem::create_directories(root / target);
  std::ofstream(root / target / ("seed-" + name), std::ios::binary) << bytes;
}

std::string header_bytes(const FrameHeader& header) {
  const transport::HeaderBytes bytes = transport::encode_header(header);
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::uint64_t xxh3(const std::string& payload) {
  return transport::xxh3_64(std::as_bytes(std::span(payload.data(), payload.size())));
}

// One frame of a scripted_connection.h script: fix-ups, the sealed part of the header, the payload.
std::string scripted(std::uint8_t fixups, FrameHeader header, const std::string& payload) {
  header.length = static_cast<std::uint32_t>(payload.size());
  return static_cast<char>(fixups) + header_bytes(header).substr(0, transport::frame_sealed_bytes) + payload;
}

void transport_frame() {
  const std::string reason = "sink refused chunk [0, 4096): outside its region";
  write("transport_frame", "begin",
        header_bytes({.kind = FrameKind::begin,
                      .job = 7,
                      .step = 1,
                      .length = 0,
                      .offset = 100,
                      .range_end = 200,
                      .checksum = 0}));
  write("transport_frame", "data",
        header_bytes({.kind = FrameKind::data,
                      .job = 7,
                      .step = 1,
                      .length = 5,
                      .offset = 100,
                      .range_end = 200,
                      .checksum = xxh3("hello")}) +
            "hello");
  write("transport_frame", "reject",
        header_bytes({.kind = FrameKind::reject,
                      .job = 7,
                      .step = 1,
                      .length = static_cast<std::uint32_t>(reason.size()),
                      .offset = 100,
                      .range_end = 200,
                      .checksum = xxh3(reason)}) +
            reason);
  std::string bad = header_bytes(
      {.kind = FrameKind::ack, .job = 1, .step = 0, .length = 0, .offset = 0, .range_end = 0, .checksum = 0});
  bad[50] = static_cast<char>(bad[50] ^ 1);
  write("transport_frame", "bad-seal", bad);
  bad = header_bytes(
      {.kind = FrameKind::end, .job = 1, .step = 0, .length = 0, .offset = 0, .range_end = 0, .checksum = 0});
  bad[6] = 9;  // no such kind
  write("transport_frame", "bad-kind", bad);
  write("transport_frame", "short", "BATN\x02");
}

void data_flow() {
  const FrameHeader begin{
      .kind = FrameKind::begin, .job = 7, .step = 1, .length = 0, .offset = 100, .range_end = 110, .checksum = 0};
  FrameHeader data = begin;
  data.kind = FrameKind::data;
  FrameHeader end = begin;
  end.kind = FrameKind::end;
  end.offset = 110;
  FrameHeader second = data;
  second.offset = 106;
  // Fix-ups: 1 = payload checksum, 2 = range digest on the end frame.
  write("data_flow", "whole",
        scripted(0, begin, "") + scripted(1, data, "hello,") + scripted(1, second, "flow") + scripted(2, end, ""));
  FrameHeader empty = begin;
  empty.offset = empty.range_end = 5;
  FrameHeader empty_end = empty;
  empty_end.kind = FrameKind::end;
  write("data_flow", "empty", scripted(0, empty, "") + scripted(2, empty_end, ""));
  FrameHeader reject = data;
  reject.kind = FrameKind::reject;
  write("data_flow", "reject", scripted(0, begin, "") + scripted(1, data, "hello,") + scripted(1, reject, "disk full"));
  write("data_flow", "bad-checksum", scripted(0, begin, "") + scripted(0, data, "hello,"));
  write("data_flow", "gap", scripted(0, begin, "") + scripted(1, second, "flow"));
  write("data_flow", "truncated", scripted(0, begin, "") + scripted(1, data, "hello,").substr(0, 30));
}

std::string hello_payload(const security::Hello& hello) {
  std::string out;
  for (const std::string* field : {&hello.role, &hello.node_id, &hello.nonce}) {
    out += static_cast<char>(field->size() >> 8);
    out += static_cast<char>(field->size() & 0xFF);
    out += *field;
  }
  return out;
}

void data_handshake() {
  const FrameHeader hello{
      .kind = FrameKind::hello, .job = 0, .step = 0, .length = 0, .offset = 0, .range_end = 0, .checksum = 0};
  FrameHeader proof = hello;
  proof.kind = FrameKind::proof;
  FrameHeader reject = hello;
  reject.kind = FrameKind::reject;
  const std::string nonce(security::kNonceBytes, 'n');
  const std::string mac(security::kMacBytes, 'm');
  const std::string from_sender = hello_payload({.role = "sender", .node_id = "sender-1", .nonce = nonce});
  const std::string from_receiver = hello_payload({.role = "receiver", .node_id = "receiver-1", .nonce = nonce});
  // First byte: 0 = the receiver's side under test, 1 = the sender's. Fix-ups: 1 = checksum, 2 = honest proof.
  write("data_handshake", "receiver-ok",
        std::string(1, '\0') + scripted(1, hello, from_sender) + scripted(3, proof, mac));
  write("data_handshake", "sender-ok",
        std::string(1, '\1') + scripted(1, hello, from_receiver) + scripted(3, proof, mac));
  write("data_handshake", "wrong-proof",
        std::string(1, '\0') + scripted(1, hello, from_sender) + scripted(1, proof, mac));
  write("data_handshake", "wrong-node",
        std::string(1, '\1') +
            scripted(1, hello, hello_payload({.role = "receiver", .node_id = "other", .nonce = nonce})));
  write("data_handshake", "wrong-role", std::string(1, '\0') + scripted(1, hello, from_receiver));
  write("data_handshake", "bad-hello", std::string(1, '\0') + scripted(1, hello, from_sender.substr(0, 9)));
  write("data_handshake", "rejected", std::string(1, '\1') + scripted(1, reject, "no such node"));
}

std::string framed(protocol::Envelope envelope) {
  std::string out;
  protocol::append_frame(out, protocol::encode(std::move(envelope)));
  return out;
}

void control_frames() {
  protocol::Envelope hello;
  hello.mutable_hello()->set_role("agent");
  hello.mutable_hello()->set_node_id("node-1");
  hello.mutable_hello()->set_nonce(std::string(security::kNonceBytes, 'n'));
  protocol::Envelope heartbeat;
  heartbeat.mutable_heartbeat()->set_sequence(42);
  protocol::Envelope report;
  auto* step = report.mutable_step_report();
  step->set_job("job-1");
  step->set_step(3);
  step->set_ok(true);
  auto* digest = step->add_digests();
  digest->set_transfer(1);
  digest->set_length(4096);
  digest->set_xxh3(0x1234);
  protocol::Envelope plan;
  plan.mutable_plan()->set_job("job-1");
  auto* flow = plan.mutable_plan()->add_steps()->add_flows();
  flow->set_peer("node-2");
  flow->add_chunks()->set_length(100);
  protocol::Envelope refusal;
  refusal.mutable_refusal()->set_reason("wrong secret");
  // First byte: bit 0 = the handshake's cap; the rest sets the size of each read.
  write("control_frames", "hello", std::string(1, '\x01') + framed(hello));
  write("control_frames", "two-messages", std::string(1, '\x06') + framed(heartbeat) + framed(report));
  write("control_frames", "plan", std::string(1, '\xfe') + framed(plan) + framed(refusal));
  protocol::Envelope future;
  future.mutable_heartbeat()->set_sequence(1);
  future.set_version(2);
  std::string old_version;
  protocol::append_frame(old_version, future.SerializeAsString());
  write("control_frames", "version-2", std::string(1, '\x10') + old_version);
  write("control_frames", "oversized", std::string(1, '\x01') + std::string("\x00\x00\x10\x01", 4) + "xx");
  write("control_frames", "garbage", std::string(1, '\x02') + std::string("\x00\x00\x00\x03\xff\xff\xff", 7));
}

// object_answers_fuzz.cpp's records: [node byte][length, 2 bytes little-endian][ObjectAnswer].
std::string answer_record(std::uint8_t node, const protocol::ObjectAnswer& answer) {
  const std::string bytes = answer.SerializeAsString();
  return std::string{static_cast<char>(node), static_cast<char>(bytes.size() & 0xff),
                     static_cast<char>(bytes.size() >> 8)} +
         bytes;
}

protocol::ObjectAnswer answer(std::uint64_t query,
                              const std::vector<std::tuple<std::string, std::uint64_t, std::string>>& files) {
  protocol::ObjectAnswer out;
  out.set_query(query);
  for (const auto& [name, size, identity] : files) {
    protocol::ObjectInfo& info = *out.add_objects();
    info.set_object(name);
    info.set_exists(size > 0);
    info.set_size(size);
    info.set_identity(identity);
  }
  return out;
}

void object_answers() {
  // n0 and n1 over one root: src.bin, ./src.bin and hard.bin one file; n2's linked/in.bin is d/in.bin.
  const std::string src = "files:m:2049:77", in = "files:m:2049:90";
  const std::string n0 = answer_record(0, answer(1, {{"src.bin", 8192, src}, {"linked/in.bin", 0, in}}));
  const std::string n1 = answer_record(
      1, answer(1, {{"copy.bin", 0, "files:m:2049:2/copy.bin"}, {"hard.bin", 8192, src}, {"./src.bin", 8192, src}}));
  const std::string n2 = answer_record(2, answer(1, {{"d/in.bin", 4200, "files:m:2050:90"},
                                                     {"copy.bin", 0, "files:m:2050:2/copy.bin"},
                                                     {"out.bin", 100, "files:m:2050:5"},
                                                     {"d/../out.bin", 100, "files:m:2050:5"}}));
  write("object_answers", "aliases", n0 + n1 + n2);
  write("object_answers", "without-identities",
        answer_record(0, answer(1, {{"src.bin", 8192, ""}})) + answer_record(1, answer(1, {{"hard.bin", 0, ""}})));
  write("object_answers", "one-silent", n0 + answer_record(0x81, answer(1, {{"copy.bin", 0, "x"}})));
  write("object_answers", "not-asked",
        answer_record(2, answer(1, {{"elsewhere.bin", 1, src}})) + answer_record(0, answer(9, {{"src.bin", 1, src}})));
  write("object_answers", "garbage", std::string("\x01\x05\x00\xff\xff\xff\xff\xff", 8));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " DIR (the corpora unpacked: docs/fuzzing.md)\n";
    return 2;
  }
  root = argv[1];
  transport_frame();
  data_flow();
  data_handshake();
  control_frames();
  object_answers();
  return 0;
}
