// For tests of what a daemon does when its process runs out of file descriptors: lowers
// this process's soft RLIMIT_NOFILE to a little above what is open now and fills every
// free descriptor below it, leaving `spare` free (for a client socket). Everything is
// given back — the descriptors closed, the limit restored — by release() or at the end
// of the scope, so that a failing check never leaves the test process crippled.
// Under UBSan, the first check of each dynamic type reads the process's mappings and needs
// a descriptor: with none left it reports a false "invalid vptr". Run the code under test
// once before exhausting (its types are then in UBSan's cache); the constructor does so
// for the error categories every socket error compares.
#pragma once

#include <sys/resource.h>

#include <cstddef>
#include <vector>

namespace baton::test {

class ExhaustedDescriptors {
 public:
  explicit ExhaustedDescriptors(std::size_t spare = 1);
  ~ExhaustedDescriptors() { release(); }
  ExhaustedDescriptors(const ExhaustedDescriptors&) = delete;
  ExhaustedDescriptors& operator=(const ExhaustedDescriptors&) = delete;

  // How many descriptors were filled.
  std::size_t filled() const { return fillers_.size(); }
  void release();

 private:
  rlimit saved_{};
  bool lowered_ = false;
  std::vector<int> fillers_;
};

}  // namespace baton::test
