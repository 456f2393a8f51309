// A real etcd cluster for a test (docs/ha.md): `members` etcd processes on loopback, on
// ports the kernel chose, each with its own data directory in a temporary directory,
// removed when the object goes. Needs etcd on PATH (Debian etcd-server, installed by
// scripts/setup.sh): a test that starts one is registered with NEEDS etcd (cmake/BatonTest.cmake).
#pragma once

#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace baton::test {

class EtcdCluster {
 public:
  // Starts the members and waits until every one answers /health; throws naming the
  // member and its log when one does not within `timeout`. A member that could not bind
  // its port (taken meanwhile by another process) starts the cluster again on others.
  explicit EtcdCluster(int members = 1, std::chrono::milliseconds timeout = std::chrono::seconds(30));
  ~EtcdCluster();

  // Every member's client URL ("http://127.0.0.1:port").
  std::vector<std::string> endpoints() const;
  std::string endpoint(int member) const { return members_[static_cast<std::size_t>(member)].client_url; }
  // SIGKILL: the member dies at once, nothing flushed (a frozen one too: what its sockets
  // hold unread is lost with it).
  void kill(int member);
  // SIGSTOP: the member answers nothing, and reads nothing sent to it, until killed.
  void freeze(int member);
  // Starts a killed member again on its data directory and waits until it answers.
  void restart(int member, std::chrono::milliseconds timeout = std::chrono::seconds(30));
  // Starts every killed member again at once (one alone has no quorum, so it would never
  // answer healthy) and waits until each answers.
  void restart_all(std::chrono::milliseconds timeout = std::chrono::seconds(30));
  // The member that leads etcd's raft now (asked of the first member that answers), or -1.
  int raft_leader() const;
  std::string log(int member) const;

 private:
  struct Member {
    std::string name, client_url, peer_url;
    std::unique_ptr<Daemon> process;
  };
  void launch(Member& member, bool existing);
  // Until `member` answers healthy; gives up at `timeout` or once it exits (once any member
  // exits, when the cluster is `forming`), throwing with its log.
  void wait_healthy(const Member& member, std::chrono::milliseconds timeout, bool forming = false) const;

  TempDir dir_{"baton-etcd"};
  std::string initial_cluster_;
  std::vector<Member> members_;
};

}  // namespace baton::test
