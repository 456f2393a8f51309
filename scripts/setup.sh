#!/usr/bin/env bash
# Installs everything Baton needs to build, test and benchmark, from Debian's packages.
# Safe to run again. Uses sudo when not run as root.
set -euo pipefail

packages=(
  # toolchain
  g++ cmake ninja-build pkg-config
  ccache              # rebuilds share unchanged objects between the build trees
  lld                 # links each tree's executables in less than half of GNU ld's CPU (docs/build.md)
  python3             # scripts: run.sh summaries, benchmark chart data
  clang libclang-rt-14-dev  # fuzz/: the libFuzzer build tree (-fsanitize=fuzzer,address,undefined; docs/fuzzing.md)
  clang-format        # the C++ style (.clang-format; scripts/format.sh; README.md, "Formatting and headers")
  # libraries
  libboost-test-dev   # Boost.Test: every test suite
  libasio-dev         # transport: TCP on standalone Asio
  libfabric-dev       # transport: RDMA fabrics (verbs, efa, tcp, sockets, shm providers)
  libfabric-bin       # fi_info, to see which providers this machine has
  nlohmann-json3-dev  # batonctl: JSON input and output of plans
  libcli11-dev        # batonctl: command line
  libxxhash-dev       # transport: chunk checksums (XXH3)
  protobuf-compiler libprotobuf-dev  # protocol: coordinator-agent messages
  libssl-dev          # protocol: HMAC-SHA256 handshake with the cluster secret; coordinator: https:// to etcd
  openssl             # tests: a CA and certificates for etcd served over TLS (tests/journal/etcd_security_test.cpp)
  libglpk-dev         # schedule: exact KPBS solver (integer program) for the optimality benchmark
  libcpp-httplib-dev  # coordinator: job API, status page, metrics endpoints; batonctl's client
  libsqlitecpp-dev libsqlite3-dev  # coordinator: the job journal
  etcd-server etcd-client  # coordinator: the journal in etcd and the leader election (docs/ha.md); tests start real etcd
  libtomlplusplus-dev  # agent and coordinator: configuration files (toml++, a shared library)
  libspdlog-dev       # daemons: logs with job, step and node
  prometheus-cpp-dev  # metrics/: Prometheus' registry, metric families and text format (core library)
  libsystemd-dev      # daemons: sd_notify (Type=notify, watchdog) and journal logging
  systemd             # tests: systemd-analyze verify on the generated units
  python3-prometheus-client  # tests: reads /metrics back with the Prometheus project's parser
  prometheus          # tests: promtool check metrics validates /metrics (19 MB; also ships the server)
  chromium            # tests: the status page in headless Chromium
  # benchmarks
  gnuplot-nox         # charts of benchmark results
  iperf3              # reference throughput beside our TCP transport
  iproute2            # tests and bench: network-namespace clusters (ip netns, veth, tc)
  curl                # tests/netns/ha_test.sh: the coordinators' API and etcd's health from inside the namespaces
  openmpi-bin libopenmpi-dev  # bench: Open MPI's collectives beside Baton's (bench/mpi_collectives.cpp); examples/coupled's mpirun
  libgloo-dev         # bench: Gloo's ring and halving-doubling all-reduce, broadcast and reduce beside Baton's (bench/gloo_collectives.cpp)
  # coupled codes (coupling/, docs/embedding.md): the bindings, their tests and the example
  pybind11-dev python3-pybind11  # coupling/python: the baton package's native module
  gfortran            # coupling/fortran: the baton_f module (built when a Fortran compiler is present)
  python3-numpy       # coupling/python: arrays shared without a copy; tests and examples/coupled
  python3-mpi4py      # examples/coupled: the Python consumer's MPI
  python3-pytest      # tests/coupling: the Python package's tests, run by CTest
)

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  "${sudo[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
