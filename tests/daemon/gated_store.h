// A journal store for the driver's unit tests that passes every call to a real store, but
// can hold one step's record at a gate: the write waits there, on the writer thread, until
// the test lets it through (written) or fails it (never written: the coordinator died before
// the store committed it, or the store refused it). So a test sees the driver's next moves
// while that record is in flight.
#pragma once

#include "coordinator/journal/journal.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>

namespace baton::test {

class GatedStore final : public journal::Store {
 public:
  explicit GatedStore(journal::Store& store) : store_(store) {}

  // The next record of `step` waits at the gate.
  void hold(std::uint32_t step) {
    const std::lock_guard lock(mutex_);
    held_step_ = step;
  }
  // Whether that record waits at the gate now.
  bool holding() {
    const std::lock_guard lock(mutex_);
    return waiting_;
  }
  // Lets the waiting record through: written when `write`, else its write throws.
  void open(bool write) {
    const std::lock_guard lock(mutex_);
    verdict_ = write;
    opened_.notify_all();
  }

  void record_step(std::uint64_t id, const journal::StepRecord& step) override {
    {
      std::unique_lock lock(mutex_);
      if (held_step_ == step.step) {
        held_step_.reset();
        waiting_ = true;
        opened_.wait(lock, [&] { return verdict_.has_value(); });
        waiting_ = false;
        const bool write = *verdict_;
        verdict_.reset();
        if (!write) throw std::runtime_error("the record of step " + std::to_string(step.step) + " was never written");
      }
    }
    store_.record_step(id, step);
  }

  using Store::add_job;
  std::uint64_t add_job(const std::string& spec, const journal::ObjectIdentities& identities) override {
    return store_.add_job(spec, identities);
  }
  journal::ObjectIdentities identities(std::uint64_t id) override { return store_.identities(id); }
  void set_state(std::uint64_t id, const std::string& state, const std::string& error = "") override {
    store_.set_state(id, state, error);
  }
  void set_report(std::uint64_t id, const std::string& report) override { store_.set_report(id, report); }
  std::vector<journal::JobRecord> jobs() override { return store_.jobs(); }
  std::optional<journal::JobRecord> job(std::uint64_t id) override { return store_.job(id); }
  std::vector<journal::StepRecord> steps(std::uint64_t id) override { return store_.steps(id); }
  std::vector<std::uint64_t> unfinished() override { return store_.unfinished(); }
  std::uint64_t add_calibration(const std::string& request) override { return store_.add_calibration(request); }
  void set_calibration(std::uint64_t id, journal::CalibrationState state, const std::string& error = "",
                       const std::string& result = "") override {
    store_.set_calibration(id, state, error, result);
  }
  std::vector<journal::CalibrationRecord> calibrations() override { return store_.calibrations(); }
  void add_replan(std::uint64_t job, const journal::ReplanRecord& replan) override { store_.add_replan(job, replan); }
  std::vector<journal::ReplanRecord> replans(std::uint64_t job) override { return store_.replans(job); }
  std::string where() const override { return store_.where(); }
  std::string_view kind() const override { return store_.kind(); }

 private:
  journal::Store& store_;
  std::mutex mutex_;
  std::condition_variable opened_;
  std::optional<std::uint32_t> held_step_;
  bool waiting_ = false;
  std::optional<bool> verdict_;
};

}  // namespace baton::test
