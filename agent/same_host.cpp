#include "agent/same_host.h"

#include <sys/stat.h>
#include <fstream>

namespace baton::agent {
namespace {

constexpr std::string_view marker = " shm=";

}  // namespace

std::string host_identity() {
  std::ifstream boot("/proc/sys/kernel/random/boot_id");
  std::string boot_id;
  if (!(boot >> boot_id) || boot_id.empty()) return {};
  struct stat namespace_file {};
  if (::stat("/proc/self/ns/net", &namespace_file) != 0) return {};
  return boot_id + "." + std::to_string(namespace_file.st_ino);
}

std::string with_memory_path(const std::string& network, const std::string& host, const std::string& memory) {
  return network + std::string(marker) + host + "/" + memory;
}

PeerAddress split_peer_address(const std::string& address, std::string& detail) {
  const std::size_t at = address.find(marker);
  if (at == std::string::npos) return {.network = address, .host = {}, .memory = {}};
  PeerAddress peer{.network = address.substr(0, at), .host = {}, .memory = {}};
  const std::string path = address.substr(at + marker.size());
  const std::size_t slash = path.find('/');
  if (slash == 0 || slash == std::string::npos || slash + 1 == path.size()) {
    detail = "data address '" + address.substr(0, 200) + "' has a malformed shm part (want shm=<host>/<endpoint>)";
    return peer;
  }
  peer.host = path.substr(0, slash);
  peer.memory = path.substr(slash + 1);
  return peer;
}

}  // namespace baton::agent
