/* Baton for coupled codes, in C (docs/embedding.md, "Coupled codes"): this process as a
 * node of Baton jobs, the parts of distributed arrays it shares, and handoffs that have the
 * coordinator move an array from one group's layout to another's.
 *
 * Every call returns a baton_status; when it is not BATON_OK, baton_session_error() (or
 * baton_layout_error() for a layout's calls) says what went wrong in one line, until the
 * next call on the same handle. Handles are opaque; nothing of C++ crosses this header.
 * A handle may be used by one thread at a time.
 *
 *   baton_session* s;  baton_session_create(&s);
 *   baton_session_set(s, "node_id", "ocean-1");  ... "coordinator", "api", "secret_file"
 *   if (baton_session_start(s) != BATON_OK) fprintf(stderr, "%s\n", baton_session_error(s));
 *   baton_layout* rows;  baton_layout_create(&rows, 1000, 800, sizeof(double));
 *   baton_layout_add_node(rows, "ocean-0"); ...; baton_layout_distribute(rows, 0, 0);
 *   baton_share(s, "sst", rows, local, local_bytes);
 *   baton_session_set_agree(s, allreduce_max, &comm);   (collective handoffs)
 *   baton_report r;  baton_handoff(s, "sst", rows, cols, &r);
 */
#ifndef BATON_BATON_H
#define BATON_BATON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum baton_status {
  BATON_OK = 0,
  BATON_INVALID_ARGUMENT = 1, /* a wrong value or call, named in the message */
  BATON_UNKNOWN_NAME = 2,     /* no array (or job) of that name */
  BATON_REGION_TOO_SMALL = 3, /* the memory given is smaller than this node's part */
  BATON_UNREACHABLE = 4,      /* the coordinator does not answer, or did not register the node */
  BATON_JOB_FAILED = 5,       /* the coordinator refused, failed or cancelled the job */
  BATON_TIMEOUT = 6,          /* the job did not end in time (the process that submitted it cancels it) */
  BATON_INTERNAL = 7          /* a fault of Baton's own (out of memory, a bug), said in the message */
} baton_status;

/* "BATON_OK", "BATON_UNKNOWN_NAME", ... */
const char* baton_status_name(baton_status status);

typedef struct baton_session baton_session;
typedef struct baton_layout baton_layout;

/* ---- sessions ---- */

/* A session not started yet. Fails only with BATON_INTERNAL (no memory): *out is NULL. */
baton_status baton_session_create(baton_session** out);
/* Sets one option before baton_session_start (values are copied):
 *   node_id        this process's node (leave unset for a coupler or a script)
 *   coordinator    host:port of the coordinator's agent listener (with node_id)
 *   api            host:port of the coordinator's HTTP API (always)
 *   secret         the cluster's secret, or secret_file: a file holding it (with node_id)
 *   api_token      the API's bearer token, or api_token_file: a file holding it
 *   data_address   where peers reach this node's data (default 127.0.0.1:0)
 *   same_host_memory  on or off (default): peers on this host through shared memory
 *   keep_plans     on (default) or off: a collective handoff keeps its plan on the agents and
 *                  runs it again the next time, without a job (baton_report_json's "exchange")
 *   rate           bytes/s of a node: this one's, and the platform of the jobs it submits (1e9)
 *   backbone_rate  bytes/s of the network (default rate x the smaller group)
 *   step_startup   seconds, the model's beta (0.001)
 *   algorithm      the redistribution's scheduler (default: the coordinator's)
 *   timeout        seconds to wait for registering, and for each handoff (600) */
baton_status baton_session_set(baton_session* session, const char* key, const char* value);
/* Starts this node's embedded agent and waits until the coordinator registered it. */
baton_status baton_session_start(baton_session* session);
/* The line saying why the last call on `session` failed; "" after one that succeeded. */
const char* baton_session_error(const baton_session* session);
/* Stops the agent (a running step finishes first) and frees the session. NULL is ignored. */
void baton_session_destroy(baton_session* session);

/* Makes handoffs collective: agree(value, context) must return the largest value that
 * every process of both groups passed to its own call (MPI_Allreduce with MPI_MAX over a
 * communicator holding both codes), and return only once all have called. NULL: the one
 * process that calls baton_handoff submits the job alone (a coupler). */
typedef uint64_t (*baton_agree_fn)(uint64_t value, void* context);
baton_status baton_session_set_agree(baton_session* session, baton_agree_fn agree, void* context);

/* ---- layouts: a 2-D array of rows x cols elements, row-major on every node ---- */

baton_status baton_layout_create(baton_layout** out, uint64_t rows, uint64_t cols, uint64_t element_size);
/* Appends a node to the group: the n-th node added holds part n. */
baton_status baton_layout_add_node(baton_layout* layout, const char* node);
/* Cuts dimension `dim` (0: rows, 1: columns) over the group: in blocks (block = 0: node p
 * holds the p-th of P pieces of ceil(n/P)) or block-cyclically (blocks of `block`). */
baton_status baton_layout_distribute(baton_layout* layout, int dim, uint64_t block);
/* Cuts dimension `dim` into index ranges instead: the n-th node added holds the next
 * counts[n] rows (or columns); one count per node, summing to the dimension. */
baton_status baton_layout_distribute_ranges(baton_layout* layout, int dim, const uint64_t* counts, size_t n);
/* `node`'s part: its local rows and columns (row-major). BATON_UNKNOWN_NAME: not in the group. */
baton_status baton_layout_local_shape(baton_layout* layout, const char* node, uint64_t* rows, uint64_t* cols);
/* The global index (along the cut dimension) of `node`'s `local`-th row or column. */
baton_status baton_layout_global_index(baton_layout* layout, const char* node, uint64_t local, uint64_t* global);
const char* baton_layout_error(const baton_layout* layout);
void baton_layout_destroy(baton_layout* layout);

/* ---- arrays and handoffs ---- */

/* Shares this node's part of `layout` as `name`: `data` (at least the part's bytes) is
 * read or written in place while a handoff of it runs, and must stay valid until
 * baton_unshare or the session's end. The layout is copied. */
baton_status baton_share(baton_session* session, const char* name, const baton_layout* layout, void* data,
                         size_t bytes);
baton_status baton_unshare(baton_session* session, const char* name);

/* How the handoff's job ended (BATON_JOB_FAILED_STATE: BATON_JOB_FAILED is the status). */
typedef enum baton_job_state {
  BATON_JOB_DONE = 0,
  BATON_JOB_FAILED_STATE = 1,
  BATON_JOB_CANCELLED = 2
} baton_job_state;

/* What a handoff did, from the coordinator's report. */
typedef struct baton_report {
  baton_job_state state;
  uint64_t job;               /* the coordinator's job id */
  int reused_spec;            /* 1: the job's JSON was built by an earlier handoff of the same layouts */
  uint64_t bytes;             /* moved */
  uint64_t steps;             /* of the schedule */
  double predicted_seconds;   /* the model's makespan */
  double measured_seconds;    /* as run */
  double lower_bound_seconds; /* the schedule's lower bound */
} baton_report;

/* Moves array `name` from `from` to `to` and returns when the coordinator ended the job.
 * With an agree function every process of both groups calls it, in the same order.
 * BATON_JOB_FAILED: the job ran and failed or was cancelled (`report` says which, the
 * message why); `report` may be NULL. */
baton_status baton_handoff(baton_session* session, const char* name, const baton_layout* from, const baton_layout* to,
                           baton_report* report);
/* The last handoff's job as the coordinator answered GET /v1/jobs/{id} (JSON), or "";
 * valid until the next call on `session`. */
const char* baton_report_json(const baton_session* session);

/* For scripts: submits a job's JSON (docs/runtime.md, "A job") and writes its id into
 * `id` (NUL-terminated; BATON_INVALID_ARGUMENT if `capacity` is too small). */
baton_status baton_submit(baton_session* session, const char* job_json, char* id, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* BATON_BATON_H */
