// The `baton` Python package's native part, baton._baton (docs/embedding.md, "Python"):
// sessions, layouts and handoffs over baton::coupling. Arrays are shared without a copy
// through the buffer protocol; the buffer is held (and the array kept alive) until the
// array is unshared or the session closed.
#include "coupling/error.h"
#include "coupling/session.h"

#include <pybind11/functional.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>

namespace py = pybind11;
using namespace baton::coupling;

namespace {

// The exception classes of the package: baton.Error and one subclass per Errc.
struct Exceptions {
  PyObject* base = nullptr;
  std::map<Errc, PyObject*> by_code;
};
Exceptions exceptions;

// A buffer taken from a Python object, released (with the GIL) when it goes.
struct HeldBuffer {
  Py_buffer view{};
  explicit HeldBuffer(Py_buffer v) : view(v) {}
  ~HeldBuffer() { PyBuffer_Release(&view); }
  HeldBuffer(const HeldBuffer&) = delete;
  HeldBuffer& operator=(const HeldBuffer&) = delete;
};

[[noreturn]] void invalid(const std::string& message) { throw Error(Errc::invalid_argument, message); }

std::unique_ptr<HeldBuffer> writable_c_contiguous(const std::string& name, const py::object& array) {
  Py_buffer view{};
  if (PyObject_GetBuffer(array.ptr(), &view, PyBUF_STRIDES | PyBUF_FORMAT) != 0) {
    PyErr_Clear();
    invalid("share " + name + ": a " + std::string(py::str(py::type::of(array).attr("__name__"))) +
            " does not offer the buffer protocol (pass a numpy array)");
  }
  auto held = std::make_unique<HeldBuffer>(view);
  if (view.readonly) {
    invalid("share " + name +
            ": the array is read-only, and a handoff writes into it in place (pass a writable array)");
  }
  if (!PyBuffer_IsContiguous(&view, 'C')) {
    invalid("share " + name +
            ": the array is not C-contiguous, and Baton moves its memory as it lies "
            "(pass numpy.ascontiguousarray(a), which copies it once, and keep that copy)");
  }
  return held;
}

class PySession {
 public:
  explicit PySession(SessionOptions options) {
    py::gil_scoped_release release;
    session_ = std::make_unique<Session>(std::move(options));
  }

  void share(const std::string& name, const Layout& layout, const py::object& array) {
    auto held = writable_c_contiguous(name, array);
    if (static_cast<std::uint64_t>(held->view.itemsize) != layout.element_size) {
      invalid("share " + name + ": the array's elements are " + std::to_string(held->view.itemsize) +
              " bytes, the layout's " + std::to_string(layout.element_size));
    }
    session().share(name, layout, {static_cast<std::byte*>(held->view.buf), static_cast<std::size_t>(held->view.len)});
    buffers_[name] = std::move(held);
  }

  void unshare(const std::string& name) {
    session().unshare(name);
    buffers_.erase(name);
  }

  void set_agree(std::optional<py::function> agree) {
    if (!agree) {
      session().set_agree({});
      return;
    }
    // Called from handoff() without the GIL: take it for the call.
    auto f = std::make_shared<py::function>(std::move(*agree));
    session().set_agree([f](std::uint64_t value) {
      py::gil_scoped_acquire gil;
      return (*f)(value).cast<std::uint64_t>();
    });
  }

  HandoffResult handoff(const std::string& name, const Layout& from, const Layout& to) {
    Session& s = session();
    py::gil_scoped_release release;
    return s.handoff(name, from, to);
  }

  std::string submit(const std::string& job) {
    Session& s = session();
    py::gil_scoped_release release;
    return s.submit(job);
  }

  std::string job(const std::string& id) {
    Session& s = session();
    py::gil_scoped_release release;
    return s.job(id);
  }

  ~PySession() { close(); }
  PySession(const PySession&) = delete;
  PySession& operator=(const PySession&) = delete;

  // Stops the agent; the shared arrays are released after it, when no job can touch them.
  // The agree function (a Python object) goes first, while this thread holds the GIL.
  void close() {
    if (!session_) return;
    session_->set_agree({});
    {
      py::gil_scoped_release release;
      session_.reset();
    }
    buffers_.clear();
  }

  std::string node_id() { return session().node_id(); }

 private:
  Session& session() {
    if (!session_) invalid("the session is closed");
    return *session_;
  }
  std::unique_ptr<Session> session_;
  std::map<std::string, std::unique_ptr<HeldBuffer>> buffers_;
};

const char* state_name(JobState state) {
  switch (state) {
    case JobState::done: return "done";
    case JobState::failed: return "failed";
    case JobState::cancelled: return "cancelled";
  }
  return "failed";
}

}  // namespace

PYBIND11_MODULE(_baton, m) {
  m.doc() = "Baton for coupled codes: sessions, layouts and handoffs (docs/embedding.md)";

  exceptions.base = PyErr_NewExceptionWithDoc("baton._baton.Error", "A Baton call failed; the message says why.",
                                              PyExc_RuntimeError, nullptr);
  m.attr("Error") = py::handle(exceptions.base);
  const std::pair<Errc, const char*> kinds[] = {{Errc::invalid_argument, "InvalidArgument"},
                                                {Errc::unknown_name, "UnknownName"},
                                                {Errc::region_too_small, "RegionTooSmall"},
                                                {Errc::unreachable, "Unreachable"},
                                                {Errc::job_failed, "JobFailed"},
                                                {Errc::timeout, "Timeout"}};
  for (const auto& [code, name] : kinds) {
    PyObject* type = PyErr_NewException(("baton._baton." + std::string(name)).c_str(), exceptions.base, nullptr);
    exceptions.by_code[code] = type;
    m.attr(name) = py::handle(type);
  }
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(exceptions.by_code.at(e.code()), e.what());
    }
  });

  py::class_<Layout>(m, "Layout", "A 2-D array of rows x cols elements over a group of nodes, row-major on each.")
      .def(py::init([](std::array<std::uint64_t, 2> shape, std::uint64_t element_size, std::vector<std::string> nodes,
                       int dim, std::uint64_t block, std::vector<std::uint64_t> counts) {
             return Layout::make(shape, element_size, std::move(nodes),
                                 {.dim = dim, .block = block, .counts = std::move(counts)});
           }),
           py::arg("shape"), py::arg("element_size"), py::arg("nodes"), py::arg("dim") = 0, py::arg("block") = 0,
           py::arg("counts") = std::vector<std::uint64_t>{})
      .def_property_readonly("shape", [](const Layout& l) { return py::make_tuple(l.shape[0], l.shape[1]); })
      .def_readonly("element_size", &Layout::element_size)
      .def_readonly("nodes", &Layout::nodes)
      .def_property_readonly("dim", [](const Layout& l) { return l.distribution.dim; })
      .def_property_readonly("block", [](const Layout& l) { return l.distribution.block; })
      .def_property_readonly("counts", [](const Layout& l) { return l.distribution.counts; })
      .def("index_of", &Layout::index_of, py::arg("node"))
      .def(
          "local_shape",
          [](const Layout& l, std::size_t p) {
            if (p >= l.nodes.size())
              invalid("local_shape: part " + std::to_string(p) + " of " + std::to_string(l.nodes.size()));
            const auto local = l.local_shape(p);
            return py::make_tuple(local[0], local[1]);
          },
          py::arg("part"))
      .def(
          "global_indices",
          [](const Layout& l, std::size_t p) {
            if (p >= l.nodes.size())
              invalid("global_indices: part " + std::to_string(p) + " of " + std::to_string(l.nodes.size()));
            std::vector<std::uint64_t> out(l.count(p));
            for (std::uint64_t i = 0; i < out.size(); ++i) out[i] = l.global_index(p, i);
            return out;
          },
          py::arg("part"))
      .def("describe", &Layout::describe)
      .def("__repr__", [](const Layout& l) { return "<baton.Layout " + l.describe() + ">"; })
      .def(py::self == py::self);

  py::class_<HandoffResult>(m, "HandoffResult", "What a handoff did: the job's end state and its report.")
      .def_property_readonly("state", [](const HandoffResult& r) { return state_name(r.state); })
      .def_property_readonly("ok", [](const HandoffResult& r) { return r.state == JobState::done; })
      .def_readonly("job", &HandoffResult::job)
      .def_readonly("error", &HandoffResult::error)
      .def_readonly("reused_spec", &HandoffResult::reused_spec)
      .def_readonly("reused_plan", &HandoffResult::reused_plan)
      .def_readonly("kept_plan", &HandoffResult::kept_plan)
      .def_readonly("exchange_error", &HandoffResult::exchange_error)
      .def_readonly("bytes", &HandoffResult::bytes)
      .def_readonly("steps", &HandoffResult::steps)
      .def_readonly("predicted_seconds", &HandoffResult::predicted_seconds)
      .def_readonly("measured_seconds", &HandoffResult::measured_seconds)
      .def_readonly("lower_bound_seconds", &HandoffResult::lower_bound_seconds)
      .def_property_readonly("report",
                             [](const HandoffResult& r) { return py::module_::import("json").attr("loads")(r.report); })
      .def("__repr__", [](const HandoffResult& r) {
        return "<baton.HandoffResult job " + r.job + " " + state_name(r.state) +
               (r.error.empty() ? "" : ": " + r.error) + ">";
      });

  py::class_<PySession>(m, "Session", "This process as a node of Baton jobs (or, without node_id, a client).")
      .def(py::init([](const std::string& api, const std::string& node_id, const std::string& coordinator,
                       const std::string& secret, const std::string& api_token, const std::string& data_address,
                       double rate, double backbone_rate, double step_startup, const std::string& algorithm,
                       double timeout, bool keep_plans) {
             if (!(rate > 0) || backbone_rate < 0 || step_startup < 0 || !(timeout > 0)) {
               invalid("Session: rate and timeout must be > 0, backbone_rate and step_startup >= 0");
             }
             SessionOptions o{.node_id = node_id,
                              .coordinator = coordinator,
                              .api = api,
                              .secret = secret,
                              .api_token = api_token,
                              .data_address = data_address,
                              .keep_plans = keep_plans,
                              .platform = {.rate = rate,
                                           .backbone_rate = backbone_rate,
                                           .step_startup = step_startup,
                                           .algorithm = algorithm},
                              .timeout = std::chrono::milliseconds(static_cast<std::int64_t>(timeout * 1000))};
             return std::make_unique<PySession>(std::move(o));
           }),
           py::kw_only(), py::arg("api"), py::arg("node_id") = "", py::arg("coordinator") = "", py::arg("secret") = "",
           py::arg("api_token") = "", py::arg("data_address") = "127.0.0.1:0", py::arg("rate") = 1e9,
           py::arg("backbone_rate") = 0.0, py::arg("step_startup") = 1e-3, py::arg("algorithm") = "",
           py::arg("timeout") = 600.0, py::arg("keep_plans") = true)
      .def("share", &PySession::share, py::arg("name"), py::arg("layout"), py::arg("array"))
      .def("unshare", &PySession::unshare, py::arg("name"))
      .def("set_agree", &PySession::set_agree, py::arg("agree"))
      .def("handoff", &PySession::handoff, py::arg("name"), py::arg("source"), py::arg("destination"))
      .def("submit", &PySession::submit, py::arg("job"))
      .def("job", &PySession::job, py::arg("id"))
      .def("close", &PySession::close)
      .def_property_readonly("node_id", &PySession::node_id);
}
