// The objects of a calibration's probe flows (docs/calibration.md): "probe:random", a
// source of pseudo-random bytes the agent generates as they are sent, and "probe:discard",
// a sink that keeps nothing. Probes cross the data plane like any flow (sealed, checksummed
// at both ends, digests matched by the coordinator) but touch no file and no memory region.
// Names beginning "probe:" are reserved: ProbeStorage answers them and hands every other
// name to the storage it wraps.
#pragma once

#include "agent/plan_check.h"
#include "agent/storage.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace baton::agent {

inline constexpr std::string_view kProbePrefix = "probe:";
inline constexpr std::string_view kProbeRandom = "probe:random";
inline constexpr std::string_view kProbeDiscard = "probe:discard";
// How far a probe source reaches: far more than any probe sends, and no offset + length
// within it overflows.
inline constexpr std::uint64_t kProbeObjectBytes = std::uint64_t{1} << 62;

class ProbeStorage final : public Storage {
 public:
  // `files` outlives this storage.
  explicit ProbeStorage(Storage& files) : files_(files) {}
  // Throws error::InvalidInput naming a "probe:" name that is not a probe source.
  std::unique_ptr<transport::Source> source(const std::string& name) override;
  // Throws error::InvalidInput naming a "probe:" name that is not a probe sink.
  std::unique_ptr<transport::Sink> sink(const std::string& name) override;
  // The probe source is there, 2^62 bytes long; the sink and unknown probe names cannot be read.
  ObjectStatus status(const std::string& name) override;

 private:
  Storage& files_;
};

// The same checks as `objects`, with the probe objects known: "probe:random" may only be
// read, "probe:discard" only written, any other "probe:" name is refused.
PlanObjects with_probe_objects(PlanObjects objects);

}  // namespace baton::agent
