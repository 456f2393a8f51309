// A coupled application's side of one Baton job (docs/embedding.md): it registers an
// array as a memory region, joins the cluster as node NODE and waits for job JOB. The
// sender fills its array with a pattern; the receiver checks every byte of what arrived.
// Then it stays a node until END_FILE exists: wait_job answers "done" once this node's
// steps ran, and the coordinator ends the job (JobEnded, answered by every node) after
// that, so a node that left at once would fail the job.
//   coupled NODE COORDINATOR SECRET_FILE REGION BYTES send|receive JOB END_FILE
#include "agent/embedded.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <span>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

std::byte pattern(std::size_t i) { return static_cast<std::byte>((i * 7 + 3) % 251); }

std::string read_secret(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::string secret = text.str();
  while (!secret.empty() && secret.back() == '\n') secret.pop_back();
  return secret;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 9) {
    std::cerr << "usage: coupled NODE COORDINATOR SECRET_FILE REGION BYTES send|receive JOB END_FILE\n";
    return 2;
  }
  const std::string node = argv[1], mode = argv[6], job = argv[7];
  std::vector<std::byte> array(std::strtoull(argv[5], nullptr, 10));
  if (mode == "send") {
    for (std::size_t i = 0; i < array.size(); ++i) array[i] = pattern(i);
  }
  baton::EmbeddedAgent agent({.node_id = node, .coordinator = argv[2], .secret = read_secret(argv[3]), .rate = 50e6});
  agent.register_region(argv[4], std::span(array));
  if (!agent.wait_registered(std::chrono::seconds(20))) {
    std::cerr << node << ": not registered with " << argv[2] << " within 20 s\n";
    return 1;
  }
  std::cout << "registered" << std::endl;
  const std::string state = agent.wait_job(job, std::chrono::seconds(120));
  if (state != "done") {
    std::cerr << node << ": job " << job << " ended as '" << state << "'\n";
    return 1;
  }
  if (mode == "receive") {
    for (std::size_t i = 0; i < array.size(); ++i) {
      if (array[i] != pattern(i)) {
        std::cerr << node << ": byte " << i << " differs from the sender's\n";
        return 1;
      }
    }
    std::cout << "verified " << array.size() << " bytes" << std::endl;
  }
  for (int i = 0; i < 600 && !std::filesystem::exists(argv[8]); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return 0;
}
