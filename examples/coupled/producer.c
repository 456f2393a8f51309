/* The producer of examples/coupled (README.md there): P ranks of a C code that compute a
 * 2-D field held in block rows and hand it, every time step, to the consumer (a Python
 * code holding it in block-cyclic columns) through Baton. Started by run.sh as the first
 * part of one mpirun: MPI_COMM_WORLD holds both codes, which only agree through it.
 *
 *   producer ROWS COLS BLOCK STEPS    (BATON_API, BATON_COORDINATOR, BATON_SECRET_FILE set) */
#include <baton/baton.h>
#include <mpi.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the producer computes at step t: every element distinct, exact in a double. */
static double field(uint64_t i, uint64_t j, uint64_t cols, int t) { return (double)t * 1e9 + (double)(i * cols + j); }

/* Both codes' processes agree on the largest value: the handoff's barrier and its job id. */
static uint64_t agree(uint64_t value, void* context) {
  uint64_t largest = 0;
  MPI_Allreduce(&value, &largest, 1, MPI_UINT64_T, MPI_MAX, *(MPI_Comm*)context);
  return largest;
}

static void check(baton_status status, const char* what, const char* error, int rank) {
  if (status == BATON_OK) return;
  fprintf(stderr, "producer %d: %s: %s: %s\n", rank, what, baton_status_name(status), error);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static const char* env(const char* name) {
  const char* value = getenv(name);
  if (!value || !*value) {
    fprintf(stderr, "producer: %s is not set\n", name);
    exit(2);
  }
  return value;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank = 0, world_size = 0, rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Comm code;
  MPI_Comm_split(MPI_COMM_WORLD, 0, world_rank, &code); /* colour 0: the producer */
  MPI_Comm_rank(code, &rank);
  MPI_Comm_size(code, &size);
  if (argc != 5) {
    if (rank == 0) fprintf(stderr, "usage: producer ROWS COLS BLOCK STEPS\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const uint64_t rows = strtoull(argv[1], NULL, 10), cols = strtoull(argv[2], NULL, 10);
  const uint64_t block = strtoull(argv[3], NULL, 10);
  const int steps = atoi(argv[4]);
  const int consumers = world_size - size;

  char node[64];
  snprintf(node, sizeof node, "producer-%d", rank);
  baton_session* session = NULL;
  check(baton_session_create(&session), "create", "out of memory", rank);
  check(baton_session_set(session, "node_id", node), "node_id", baton_session_error(session), rank);
  check(baton_session_set(session, "api", env("BATON_API")), "api", baton_session_error(session), rank);
  check(baton_session_set(session, "coordinator", env("BATON_COORDINATOR")), "coordinator",
        baton_session_error(session), rank);
  check(baton_session_set(session, "secret_file", env("BATON_SECRET_FILE")), "secret_file",
        baton_session_error(session), rank);
  check(baton_session_start(session), "start", baton_session_error(session), rank);
  MPI_Comm world = MPI_COMM_WORLD;
  check(baton_session_set_agree(session, agree, &world), "agree", baton_session_error(session), rank);

  /* The layouts, the same in both codes: block rows here, block-cyclic columns there, in
   * blocks of BLOCK columns for the first half of the steps and of 2 BLOCK after (the
   * consumer changes its decomposition: the handoff is planned anew). */
  baton_layout *from = NULL, *to = NULL, *wider = NULL;
  baton_layout_create(&from, rows, cols, sizeof(double));
  baton_layout_create(&to, rows, cols, sizeof(double));
  baton_layout_create(&wider, rows, cols, sizeof(double));
  char name[64];
  for (int p = 0; p < size; ++p) {
    snprintf(name, sizeof name, "producer-%d", p);
    check(baton_layout_add_node(from, name), "layout", baton_layout_error(from), rank);
  }
  for (int q = 0; q < consumers; ++q) {
    snprintf(name, sizeof name, "consumer-%d", q);
    check(baton_layout_add_node(to, name), "layout", baton_layout_error(to), rank);
    check(baton_layout_add_node(wider, name), "layout", baton_layout_error(wider), rank);
  }
  check(baton_layout_distribute(from, 0, 0), "layout", baton_layout_error(from), rank);
  check(baton_layout_distribute(to, 1, block), "layout", baton_layout_error(to), rank);
  check(baton_layout_distribute(wider, 1, 2 * block), "layout", baton_layout_error(wider), rank);

  uint64_t local_rows = 0, local_cols = 0, first_row = 0;
  check(baton_layout_local_shape(from, node, &local_rows, &local_cols), "part", baton_layout_error(from), rank);
  if (local_rows > 0) baton_layout_global_index(from, node, 0, &first_row);
  const size_t bytes = (size_t)(local_rows * local_cols) * sizeof(double);
  double* part = malloc(bytes > 0 ? bytes : 1);
  check(baton_share(session, "field", from, part, bytes), "share", baton_session_error(session), rank);

  for (int t = 0; t < steps; ++t) {
    for (uint64_t i = 0; i < local_rows; ++i) {
      for (uint64_t j = 0; j < cols; ++j) part[i * cols + j] = field(first_row + i, j, cols, t);
    }
    baton_report report;
    check(baton_handoff(session, "field", from, t < steps - steps / 2 ? to : wider, &report), "handoff",
          baton_session_error(session), rank);
    if (rank == 0) {
      /* After the first step's job, each handoff is an exchange of the plan the agents kept. */
      const char* how = strstr(baton_report_json(session), "\"exchange\":") ? ", an exchange of its kept plan"
                        : report.reused_spec                                ? ", job spec reused"
                                                                            : "";
      printf("producer: step %d: job %" PRIu64 ", %" PRIu64 " bytes in %" PRIu64 " steps, %.3f s (model %.3f s)%s\n",
             t, report.job, report.bytes, report.steps, report.measured_seconds, report.predicted_seconds, how);
      fflush(stdout);
    }
  }
  baton_session_destroy(session);
  baton_layout_destroy(from);
  baton_layout_destroy(to);
  baton_layout_destroy(wider);
  free(part);
  MPI_Comm_free(&code);
  MPI_Finalize();
  return 0;
}
