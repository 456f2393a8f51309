// A Boost.Test precondition for the suites that start real etcd members: skipped, saying
// why, where /usr/bin/etcd is missing (tests/support/etcd_cluster.h).
#pragma once

#include "tests/support/etcd_cluster.h"

#include <boost/test/unit_test.hpp>

namespace baton::test {

inline boost::test_tools::assertion_result etcd_present(boost::unit_test::test_unit_id) {
  boost::test_tools::assertion_result present(etcd_available());
  present.message() << "skipped: " << kEtcdPath << " is missing (Debian etcd-server; scripts/setup.sh installs it)";
  return present;
}

}  // namespace baton::test
