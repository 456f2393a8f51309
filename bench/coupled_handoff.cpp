// The coupled handoff of examples/coupled against what its users would otherwise write
// (docs/embedding.md, "Benchmark"): a 2-D field of doubles held in block rows by the first
// P ranks goes to block-cyclic columns over the other Q ranks, every step, either as one
// MPI_Alltoallv over an inter-communicator between the two groups (the producer packs each
// consumer's columns; each consumer receives every producer's rows straight into its
// part), or as a Baton handoff (libbaton.so: the coordinator plans it, the ranks' embedded
// agents move it). Every consumer checks every element after each method's last step.
//
//   mpirun -np P coupled_handoff MIB... : -np Q coupled_handoff MIB...   (bench/coupled_handoff.sh)
//   BATON_API, BATON_COORDINATOR, BATON_SECRET_FILE: the coordinator; BATON_PRODUCERS=P
//   BATON_DATA_HOSTS (optional): one host per world rank, comma-separated, where its
//   embedded agent takes data connections (default 127.0.0.1; bench/coupled_handoff_star.sh)
//   BATON_DATA_RATES (optional): one rate per world rank, bytes/s, comma-separated: the rate
//   its agent declares (TCP goodput over its link); the handoffs then plan on each node's
//   BATON_ALGORITHM (optional): the handoffs' algorithm (default: the coordinator's)
//   BATON_REPETITIONS (optional): timed steps per size (default 5, 3 from 32 MiB)
//   BATON_SAME_HOST_MEMORY (optional): on sends to peers on this host through shared memory
//   (the method is then named baton-shm); off, the default, over the network
//
// Prints one line per (method, size): method, MiB, rows, cols, block, repetitions, the
// median, best and worst seconds of a step, and T*, the bound the links allow at the
// declared rates (docs/redistribution.md; "-" without BATON_DATA_RATES).
#include "baton/baton.h"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Setup {
  int world_rank = 0, world_size = 0, producers = 0, consumers = 0;
  bool producer = false;
  int rank = 0;  // in its own group
  MPI_Comm group = MPI_COMM_NULL, inter = MPI_COMM_NULL;
};

double value(std::uint64_t i, std::uint64_t j, std::uint64_t cols, int step) {
  return step * 1e9 + static_cast<double>(i * cols + j);
}

std::uint64_t agree(std::uint64_t v, void*) {
  std::uint64_t largest = 0;
  MPI_Allreduce(&v, &largest, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  return largest;
}

void fail(const Setup& s, const std::string& what) {
  std::fprintf(stderr, "coupled_handoff (rank %d): %s\n", s.world_rank, what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

// The field's sizes for `mib` MiB: square, and columns in blocks of cols / (4 Q) so that
// every consumer holds 4 blocks.
// The i-th of a comma-separated list, or "" past its end.
std::string nth(const char* list, int i) {
  std::string rest = std::string(list) + ",";
  for (int k = 0; k < i; ++k) rest.erase(0, std::min(rest.size(), rest.find(',') + 1));
  return rest.substr(0, rest.find(','));
}

struct Field {
  std::uint64_t rows, cols, block;
};
Field field_of(double mib, int consumers) {
  const auto side = static_cast<std::uint64_t>(std::sqrt(mib * 1048576.0 / 8.0));
  const std::uint64_t block = std::max<std::uint64_t>(1, side / (4 * static_cast<std::uint64_t>(consumers)));
  return {side, side, block};
}

// Which global columns consumer q holds (block-cyclic), and which rows producer p (block).
std::vector<std::uint64_t> columns_of(const Field& f, int q, int consumers) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t j = 0; j < f.cols; ++j) {
    if (static_cast<int>((j / f.block) % static_cast<std::uint64_t>(consumers)) == q) out.push_back(j);
  }
  return out;
}
std::pair<std::uint64_t, std::uint64_t> rows_of(const Field& f, int p, int producers) {
  const std::uint64_t b = (f.rows + static_cast<std::uint64_t>(producers) - 1) / static_cast<std::uint64_t>(producers);
  const std::uint64_t first = std::min(f.rows, b * static_cast<std::uint64_t>(p));
  return {first, std::min(f.rows, first + b) - first};
}

void fill(const Setup& s, const Field& f, std::vector<double>& part, int step) {
  const auto [first, count] = rows_of(f, s.rank, s.producers);
  for (std::uint64_t i = 0; i < count; ++i) {
    for (std::uint64_t j = 0; j < f.cols; ++j) part[i * f.cols + j] = value(first + i, j, f.cols, step);
  }
}

// Whether a consumer's part holds the field of `step`; agreed over every rank.
bool verified(const Setup& s, const Field& f, const std::vector<double>& part, int step) {
  int wrong = 0;
  if (!s.producer) {
    const auto cols = columns_of(f, s.rank, s.consumers);
    for (std::uint64_t i = 0; i < f.rows && !wrong; ++i) {
      for (std::size_t k = 0; k < cols.size(); ++k) {
        if (part[i * cols.size() + k] != value(i, cols[k], f.cols, step)) wrong = 1;
      }
    }
  }
  int any = 0;
  MPI_Allreduce(&wrong, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any == 0;
}

// One step as MPI_Alltoallv over the inter-communicator.
void alltoallv_step(const Setup& s, const Field& f, std::vector<double>& part, std::vector<double>& packed) {
  const int remote = s.producer ? s.consumers : s.producers;
  std::vector<int> send_counts(remote, 0), send_displs(remote, 0), recv_counts(remote, 0), recv_displs(remote, 0);
  if (s.producer) {
    const auto [first, count] = rows_of(f, s.rank, s.producers);
    (void)first;
    std::size_t at = 0;
    for (int q = 0; q < s.consumers; ++q) {
      send_displs[q] = static_cast<int>(at);
      for (std::uint64_t i = 0; i < count; ++i) {
        for (std::uint64_t j : columns_of(f, q, s.consumers)) packed[at++] = part[i * f.cols + j];
      }
      send_counts[q] = static_cast<int>(at) - send_displs[q];
    }
  } else {
    const std::uint64_t local_cols = columns_of(f, s.rank, s.consumers).size();
    for (int p = 0; p < s.producers; ++p) {
      const auto [first, count] = rows_of(f, p, s.producers);
      recv_displs[p] = static_cast<int>(first * local_cols);
      recv_counts[p] = static_cast<int>(count * local_cols);
    }
  }
  MPI_Alltoallv(packed.data(), send_counts.data(), send_displs.data(), MPI_DOUBLE, part.data(), recv_counts.data(),
                recv_displs.data(), MPI_DOUBLE, s.inter);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Setup s;
  MPI_Comm_rank(MPI_COMM_WORLD, &s.world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s.world_size);
  const char* producers = std::getenv("BATON_PRODUCERS");
  s.producers = producers ? std::atoi(producers) : 4;
  s.consumers = s.world_size - s.producers;
  if (s.producers < 1 || s.consumers < 1 || argc < 2) fail(s, "usage: BATON_PRODUCERS=P coupled_handoff MIB...");
  s.producer = s.world_rank < s.producers;
  MPI_Comm_split(MPI_COMM_WORLD, s.producer ? 0 : 1, s.world_rank, &s.group);
  MPI_Comm_rank(s.group, &s.rank);
  MPI_Intercomm_create(s.group, 0, MPI_COMM_WORLD, s.producer ? s.producers : 0, 30, &s.inter);

  const std::string node = (s.producer ? "producer-" : "consumer-") + std::to_string(s.rank);
  baton_session* session = nullptr;
  baton_session_create(&session);
  for (const auto& [key, variable] : {std::pair{"api", "BATON_API"}, std::pair{"coordinator", "BATON_COORDINATOR"},
                                      std::pair{"secret_file", "BATON_SECRET_FILE"}}) {
    const char* v = std::getenv(variable);
    if (!v) fail(s, std::string(variable) + " is not set");
    baton_session_set(session, key, v);
  }
  baton_session_set(session, "node_id", node.c_str());
  const char* rates = std::getenv("BATON_DATA_RATES");
  if (rates) {
    if (nth(rates, s.world_size - 1).empty()) fail(s, "BATON_DATA_RATES names fewer rates than there are ranks");
    baton_session_set(session, "rate", nth(rates, s.world_rank).c_str());
  }
  if (const char* algorithm = std::getenv("BATON_ALGORITHM")) baton_session_set(session, "algorithm", algorithm);
  const char* keep = std::getenv("BATON_KEEP_PLANS");
  if (baton_session_set(session, "keep_plans", keep ? keep : "on") != BATON_OK)
    fail(s, "BATON_KEEP_PLANS must be on or off, not " + std::string(keep));
  const bool keep_plans = !keep || std::string(keep) == "on";
  if (const char* memory = std::getenv("BATON_SAME_HOST_MEMORY")) {
    if (baton_session_set(session, "same_host_memory", memory) != BATON_OK)
      fail(s, "BATON_SAME_HOST_MEMORY must be on or off");
  }
  const char* repeat = std::getenv("BATON_REPETITIONS");
  if (const char* hosts = std::getenv("BATON_DATA_HOSTS")) {
    std::string list = std::string(hosts) + ",", host;
    for (int r = 0; r <= s.world_rank; ++r) {
      const auto comma = list.find(',');
      if (comma == std::string::npos) fail(s, "BATON_DATA_HOSTS names fewer hosts than there are ranks");
      host = list.substr(0, comma);
      list.erase(0, comma + 1);
    }
    baton_session_set(session, "data_address", (host + ":0").c_str());
  }
  if (baton_session_start(session) != BATON_OK) fail(s, baton_session_error(session));
  baton_session_set_agree(session, agree, nullptr);

  for (int a = 1; a < argc; ++a) {
    const double mib = std::atof(argv[a]);
    const Field f = field_of(mib, s.consumers);
    const int repetitions = repeat ? std::max(1, std::atoi(repeat)) : mib >= 32 ? 3 : 5;
    baton_layout *from = nullptr, *to = nullptr;
    baton_layout_create(&from, f.rows, f.cols, sizeof(double));
    baton_layout_create(&to, f.rows, f.cols, sizeof(double));
    for (int p = 0; p < s.producers; ++p) baton_layout_add_node(from, ("producer-" + std::to_string(p)).c_str());
    for (int q = 0; q < s.consumers; ++q) baton_layout_add_node(to, ("consumer-" + std::to_string(q)).c_str());
    baton_layout_distribute(from, 0, 0);
    baton_layout_distribute(to, 1, f.block);
    std::uint64_t local_rows = 0, local_cols = 0;
    baton_layout_local_shape(s.producer ? from : to, node.c_str(), &local_rows, &local_cols);
    std::vector<double> part(std::max<std::uint64_t>(1, local_rows * local_cols)), packed(part.size());
    // T*: every producer sends its part through its link, every consumer takes its part
    // through its own (the star has no shared bottleneck).
    std::string bound = "-";
    if (rates) {
      double t_star = 0;
      for (int r = 0; r < s.world_size; ++r) {
        const bool producing = r < s.producers;
        const std::string who =
            producing ? "producer-" + std::to_string(r) : "consumer-" + std::to_string(r - s.producers);
        std::uint64_t rows = 0, cols = 0;
        baton_layout_local_shape(producing ? from : to, who.c_str(), &rows, &cols);
        t_star = std::max(t_star, static_cast<double>(rows * cols * sizeof(double)) / std::atof(nth(rates, r).c_str()));
      }
      char text[32];
      std::snprintf(text, sizeof text, "%.4f", t_star);
      bound = text;
    }
    if (baton_share(session, "field", s.producer ? from : to, part.data(), part.size() * sizeof(double)) != BATON_OK) {
      fail(s, baton_session_error(session));
    }
    // "baton-shm": the same handoff with peers on this host reached through shared memory;
    // "-kept": after the warm-up's job, each handoff an exchange of the plan the agents kept
    // (docs/embedding.md, "Persistent handoffs"); "baton" alone: every handoff a job.
    const char* memory = std::getenv("BATON_SAME_HOST_MEMORY");
    const std::string baton =
        std::string(memory && std::string(memory) == "on" ? "baton-shm" : "baton") + (keep_plans ? "-kept" : "");
    for (const std::string& method : {std::string("alltoallv"), baton}) {
      std::vector<double> seconds;
      for (int r = 0; r <= repetitions; ++r) {  // r = 0: a warm-up, not counted
        if (s.producer) fill(s, f, part, r);
        if (!s.producer) std::fill(part.begin(), part.end(), -1.0);  // nothing left over passes the check
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        if (method == "alltoallv") {
          alltoallv_step(s, f, part, packed);
        } else if (baton_handoff(session, "field", from, to, nullptr) != BATON_OK) {
          fail(s, baton_session_error(session));
        }
        double mine = MPI_Wtime() - start, slowest = 0;
        MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (r > 0) seconds.push_back(slowest);
        // Every handoff's bytes, the warm-up's too, outside the time.
        if (!verified(s, f, part, r))
          fail(s, method + ": a consumer's part is wrong after handoff " + std::to_string(r));
      }
      std::sort(seconds.begin(), seconds.end());
      if (s.world_rank == 0) {
        std::printf("%s\t%g\t%llu\t%llu\t%llu\t%d\t%.4f\t%.4f\t%.4f\t%s\n", method.c_str(), mib,
                    static_cast<unsigned long long>(f.rows), static_cast<unsigned long long>(f.cols),
                    static_cast<unsigned long long>(f.block), repetitions, seconds[seconds.size() / 2], seconds.front(),
                    seconds.back(), bound.c_str());
        std::fflush(stdout);
      }
    }
    baton_unshare(session, "field");
    baton_layout_destroy(from);
    baton_layout_destroy(to);
  }
  baton_session_destroy(session);
  MPI_Comm_free(&s.inter);
  MPI_Comm_free(&s.group);
  MPI_Finalize();
  return 0;
}
