// The C ABI of include/baton/baton.h over baton::coupling::Session: each handle keeps the
// line of its last failure; no exception crosses into C.
#include "baton/baton.h"

#include "coupling/error.h"
#include "coupling/session.h"

#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <string>

using baton::coupling::Errc;
using baton::coupling::Error;

struct baton_session {
  baton::coupling::SessionOptions options;
  std::unique_ptr<baton::coupling::Session> session;
  std::string error;
  std::string report;
  baton_agree_fn agree = nullptr;
  void* agree_context = nullptr;
};

struct baton_layout {
  std::uint64_t rows = 0, cols = 0, element_size = 0;
  std::vector<std::string> nodes;
  baton::coupling::Distribution distribution;
  std::string error;

  baton::coupling::Layout make() const {
    return baton::coupling::Layout::make({rows, cols}, element_size, nodes, distribution);
  }
};

namespace {

baton_status status_of(Errc code) {
  switch (code) {
    case Errc::invalid_argument: return BATON_INVALID_ARGUMENT;
    case Errc::unknown_name: return BATON_UNKNOWN_NAME;
    case Errc::region_too_small: return BATON_REGION_TOO_SMALL;
    case Errc::unreachable: return BATON_UNREACHABLE;
    case Errc::job_failed: return BATON_JOB_FAILED;
    case Errc::timeout: return BATON_TIMEOUT;
  }
  return BATON_INTERNAL;
}

// Runs `f` for a handle: its error line is cleared, or set from what `f` threw.
template <class Handle, class F>
baton_status guarded(Handle* handle, F f) {
  if (!handle) return BATON_INVALID_ARGUMENT;
  handle->error.clear();
  try {
    return f();
  } catch (const Error& e) {
    handle->error = e.what();
    return status_of(e.code());
  } catch (const std::bad_alloc&) {
    handle->error = "out of memory";
  } catch (const std::exception& e) {
    handle->error = std::string("internal error: ") + e.what();
  }
  return BATON_INTERNAL;
}

std::string text(const char* value, const char* what) {
  if (!value) throw Error(Errc::invalid_argument, std::string(what) + " is NULL");
  return value;
}

std::string first_line_of_file(const std::string& path, const char* key) {
  std::ifstream file(path);
  if (!file) throw Error(Errc::invalid_argument, std::string(key) + ": cannot read " + path);
  std::string line;
  std::getline(file, line);
  if (line.empty()) throw Error(Errc::invalid_argument, std::string(key) + ": " + path + " is empty");
  return line;
}

bool on_or_off(const std::string& value, const char* key) {
  if (value == "on") return true;
  if (value == "off") return false;
  throw Error(Errc::invalid_argument, std::string(key) + ": \"" + value.substr(0, 64) + "\" is neither on nor off");
}

double positive_number(const std::string& value, const char* key, bool zero_allowed) {
  std::size_t end = 0;
  double number = 0;
  try {
    number = std::stod(value, &end);
  } catch (const std::exception&) {
    end = 0;
  }
  if (end == 0 || end != value.size() || !(number > 0 || (zero_allowed && number == 0)) || number > 1e18) {
    throw Error(Errc::invalid_argument, std::string(key) + ": \"" + value + "\" is not a " +
                                            (zero_allowed ? "number >= 0" : "positive number"));
  }
  return number;
}

baton::coupling::Session& started(baton_session* s) {
  if (!s->session) throw Error(Errc::invalid_argument, "the session is not started (baton_session_start)");
  return *s->session;
}

// The layout a baton_layout describes and the position of `node_text` in its group.
std::pair<baton::coupling::Layout, std::size_t> part_of(const baton_layout* l, const char* node_text) {
  const baton::coupling::Layout layout = l->make();
  const std::string node = text(node_text, "node");
  const auto p = layout.index_of(node);
  if (!p) throw Error(Errc::unknown_name, "node " + node + " is not in the layout's group (" + layout.describe() + ")");
  return {layout, *p};
}

}  // namespace

extern "C" {

const char* baton_status_name(baton_status status) {
  switch (status) {
    case BATON_OK: return "BATON_OK";
    case BATON_INVALID_ARGUMENT: return "BATON_INVALID_ARGUMENT";
    case BATON_UNKNOWN_NAME: return "BATON_UNKNOWN_NAME";
    case BATON_REGION_TOO_SMALL: return "BATON_REGION_TOO_SMALL";
    case BATON_UNREACHABLE: return "BATON_UNREACHABLE";
    case BATON_JOB_FAILED: return "BATON_JOB_FAILED";
    case BATON_TIMEOUT: return "BATON_TIMEOUT";
    case BATON_INTERNAL: return "BATON_INTERNAL";
  }
  return "BATON_UNKNOWN_STATUS";
}

baton_status baton_session_create(baton_session** out) {
  if (!out) return BATON_INVALID_ARGUMENT;
  *out = new (std::nothrow) baton_session();
  return *out ? BATON_OK : BATON_INTERNAL;
}

baton_status baton_session_set(baton_session* s, const char* key_text, const char* value_text) {
  return guarded(s, [&] {
    const std::string key = text(key_text, "key"), value = text(value_text, key.c_str());
    if (s->session) throw Error(Errc::invalid_argument, key + ": the session is started already");
    auto& o = s->options;
    if (key == "node_id") o.node_id = value;
    else if (key == "coordinator") o.coordinator = value;
    else if (key == "api") o.api = value;
    else if (key == "secret") o.secret = value;
    else if (key == "secret_file") o.secret = first_line_of_file(value, "secret_file");
    else if (key == "api_token") o.api_token = value;
    else if (key == "api_token_file") o.api_token = first_line_of_file(value, "api_token_file");
    else if (key == "data_address") o.data_address = value;
    else if (key == "same_host_memory") o.same_host_memory = on_or_off(value, "same_host_memory");
    else if (key == "keep_plans") o.keep_plans = on_or_off(value, "keep_plans");
    else if (key == "rate") o.platform.rate = positive_number(value, "rate", false);
    else if (key == "backbone_rate") o.platform.backbone_rate = positive_number(value, "backbone_rate", false);
    else if (key == "step_startup") o.platform.step_startup = positive_number(value, "step_startup", true);
    else if (key == "algorithm") o.platform.algorithm = value;
    else if (key == "timeout") {
      o.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(positive_number(value, "timeout", false) * 1000));
    } else {
      throw Error(Errc::invalid_argument,
                  "unknown option \"" + key +
                      "\" (node_id, coordinator, api, secret, secret_file, api_token, api_token_file, data_address, "
                      "same_host_memory, keep_plans, rate, backbone_rate, step_startup, algorithm, timeout)");
    }
    return BATON_OK;
  });
}

baton_status baton_session_start(baton_session* s) {
  return guarded(s, [&] {
    if (s->session) throw Error(Errc::invalid_argument, "the session is started already");
    s->session = std::make_unique<baton::coupling::Session>(s->options);
    if (s->agree) {
      s->session->set_agree([f = s->agree, c = s->agree_context](std::uint64_t v) { return f(v, c); });
    }
    return BATON_OK;
  });
}

const char* baton_session_error(const baton_session* s) { return s ? s->error.c_str() : "the session is NULL"; }

void baton_session_destroy(baton_session* s) { delete s; }

baton_status baton_session_set_agree(baton_session* s, baton_agree_fn agree, void* context) {
  return guarded(s, [&] {
    s->agree = agree;
    s->agree_context = context;
    if (s->session) {
      s->session->set_agree(
          agree ? baton::coupling::Agree([agree, context](std::uint64_t v) { return agree(v, context); })
                : baton::coupling::Agree());
    }
    return BATON_OK;
  });
}

baton_status baton_layout_create(baton_layout** out, std::uint64_t rows, std::uint64_t cols,
                                 std::uint64_t element_size) {
  if (!out) return BATON_INVALID_ARGUMENT;
  *out = new (std::nothrow) baton_layout();
  if (!*out) return BATON_INTERNAL;
  (*out)->rows = rows;
  (*out)->cols = cols;
  (*out)->element_size = element_size;
  return BATON_OK;
}

baton_status baton_layout_add_node(baton_layout* l, const char* node) {
  return guarded(l, [&] {
    l->nodes.push_back(text(node, "node"));
    return BATON_OK;
  });
}

baton_status baton_layout_distribute(baton_layout* l, int dim, std::uint64_t block) {
  return guarded(l, [&] {
    if (dim != 0 && dim != 1) {
      throw Error(Errc::invalid_argument, "dim must be 0 (rows) or 1 (columns), not " + std::to_string(dim));
    }
    l->distribution = {.dim = dim, .block = block, .counts = {}};
    return BATON_OK;
  });
}

baton_status baton_layout_distribute_ranges(baton_layout* l, int dim, const std::uint64_t* counts, size_t n) {
  return guarded(l, [&] {
    if (dim != 0 && dim != 1) {
      throw Error(Errc::invalid_argument, "dim must be 0 (rows) or 1 (columns), not " + std::to_string(dim));
    }
    if (!counts && n > 0) throw Error(Errc::invalid_argument, "counts is NULL");
    l->distribution = {.dim = dim, .block = 0, .counts = std::vector<std::uint64_t>(counts, counts + n)};
    return BATON_OK;
  });
}

baton_status baton_layout_local_shape(baton_layout* l, const char* node, std::uint64_t* rows, std::uint64_t* cols) {
  return guarded(l, [&] {
    if (!rows || !cols) throw Error(Errc::invalid_argument, "rows or cols is NULL");
    const auto [layout, p] = part_of(l, node);
    const auto shape = layout.local_shape(p);
    *rows = shape[0];
    *cols = shape[1];
    return BATON_OK;
  });
}

baton_status baton_layout_global_index(baton_layout* l, const char* node, std::uint64_t local, std::uint64_t* global) {
  return guarded(l, [&] {
    if (!global) throw Error(Errc::invalid_argument, "global is NULL");
    const auto [layout, p] = part_of(l, node);
    if (local >= layout.count(p)) {
      throw Error(Errc::invalid_argument, "node " + layout.nodes[p] + " holds " + std::to_string(layout.count(p)) +
                                              " indices, not index " + std::to_string(local));
    }
    *global = layout.global_index(p, local);
    return BATON_OK;
  });
}

const char* baton_layout_error(const baton_layout* l) { return l ? l->error.c_str() : "the layout is NULL"; }

void baton_layout_destroy(baton_layout* l) { delete l; }

baton_status baton_share(baton_session* s, const char* name, const baton_layout* layout, void* data, size_t bytes) {
  return guarded(s, [&] {
    if (!layout) throw Error(Errc::invalid_argument, "share: the layout is NULL");
    if (!data) throw Error(Errc::invalid_argument, "share: data is NULL");
    started(s).share(text(name, "name"), layout->make(), {static_cast<std::byte*>(data), bytes});
    return BATON_OK;
  });
}

baton_status baton_unshare(baton_session* s, const char* name) {
  return guarded(s, [&] {
    started(s).unshare(text(name, "name"));
    return BATON_OK;
  });
}

baton_status baton_handoff(baton_session* s, const char* name, const baton_layout* from, const baton_layout* to,
                           baton_report* report) {
  return guarded(s, [&] {
    s->report.clear();
    if (!from || !to) throw Error(Errc::invalid_argument, "handoff: a layout is NULL");
    const baton::coupling::HandoffResult r = started(s).handoff(text(name, "name"), from->make(), to->make());
    s->report = r.report;
    if (report) {
      *report = baton_report{.state = r.state == baton::coupling::JobState::done     ? BATON_JOB_DONE
                                      : r.state == baton::coupling::JobState::failed ? BATON_JOB_FAILED_STATE
                                                                                     : BATON_JOB_CANCELLED,
                             .job = std::stoull(r.job),
                             .reused_spec = r.reused_spec ? 1 : 0,
                             .bytes = r.bytes,
                             .steps = r.steps,
                             .predicted_seconds = r.predicted_seconds,
                             .measured_seconds = r.measured_seconds,
                             .lower_bound_seconds = r.lower_bound_seconds};
    }
    if (r.state != baton::coupling::JobState::done) {
      throw Error(Errc::job_failed, "handoff " + std::string(name) + ": job " + r.job + " " +
                                        (r.state == baton::coupling::JobState::failed ? "failed" : "was cancelled") +
                                        ": " + r.error);
    }
    return BATON_OK;
  });
}

const char* baton_report_json(const baton_session* s) { return s ? s->report.c_str() : ""; }

baton_status baton_submit(baton_session* s, const char* job_json, char* id, size_t capacity) {
  return guarded(s, [&] {
    if (!id) throw Error(Errc::invalid_argument, "submit: id is NULL");
    const std::string job = started(s).submit(text(job_json, "job"));
    if (job.size() + 1 > capacity) {
      throw Error(Errc::invalid_argument, "submit: job " + job + " was submitted, but its id needs " +
                                              std::to_string(job.size() + 1) + " bytes of `id`, which has " +
                                              std::to_string(capacity));
    }
    std::memcpy(id, job.c_str(), job.size() + 1);
    return BATON_OK;
  });
}

}  // extern "C"
