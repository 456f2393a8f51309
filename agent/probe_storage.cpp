#include "agent/probe_storage.h"

#include "error/error.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace baton::agent {
namespace {

bool is_probe(std::string_view name) { return name.starts_with(kProbePrefix); }

// Word w of SplitMix64's stream from seed 0 (Steele, Lea, Flood, "Fast splittable
// pseudorandom number generators"): its state after w + 1 steps, mixed. Any range is
// generated on its own.
std::uint64_t splitmix64(std::uint64_t w) {
  std::uint64_t x = (w + 1) * 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Pseudo-random bytes, the same at every read of the same offset (a retried step sends
// what the first attempt sent); faster than any link it feeds (one multiply-xor per 8 bytes).
class RandomSource final : public transport::Source {
 public:
  std::uint64_t size() const override { return kProbeObjectBytes; }
  std::error_code read(std::uint64_t offset, std::span<std::byte> into) const override {
    if (offset > kProbeObjectBytes || into.size() > kProbeObjectBytes - offset)
      return std::make_error_code(std::errc::invalid_argument);
    std::size_t done = 0;
    while (done < into.size()) {
      const std::uint64_t at = offset + done;
      const std::uint64_t word = splitmix64(at / 8);  // in host byte order: nobody regenerates it
      const std::size_t skip = at % 8;
      const std::size_t n = std::min<std::size_t>(8 - skip, into.size() - done);
      std::memcpy(into.data() + done, reinterpret_cast<const std::byte*>(&word) + skip, n);
      done += n;
    }
    return {};
  }
};

error::InvalidInput unknown(const std::string& name) {
  return error::InvalidInput("unknown probe object '" + name + "' (known: " + std::string(kProbeRandom) + ", " +
                             std::string(kProbeDiscard) + ")");
}

}  // namespace

std::unique_ptr<transport::Source> ProbeStorage::source(const std::string& name) {
  if (!is_probe(name)) return files_.source(name);
  if (name == kProbeRandom) return std::make_unique<RandomSource>();
  if (name == kProbeDiscard) throw error::InvalidInput(name + " can only be written");
  throw unknown(name);
}

std::unique_ptr<transport::Sink> ProbeStorage::sink(const std::string& name) {
  if (!is_probe(name)) return files_.sink(name);
  if (name == kProbeDiscard) return std::make_unique<transport::DiscardSink>();
  if (name == kProbeRandom) throw error::InvalidInput(name + " can only be read");
  throw unknown(name);
}

ObjectStatus ProbeStorage::status(const std::string& name) {
  if (!is_probe(name)) return files_.status(name);
  if (name == kProbeRandom) return {.exists = true, .size = kProbeObjectBytes, .error = {}, .identity = {}};
  if (name == kProbeDiscard)
    return {.exists = false, .size = 0, .error = name + " can only be written", .identity = {}};
  return {.exists = false, .size = 0, .error = unknown(name).what(), .identity = {}};
}

PlanObjects with_probe_objects(PlanObjects objects) {
  return PlanObjects{
      .check_name = [check = std::move(objects.check_name)](const std::string& name) -> std::optional<error::Refusal> {
        if (!is_probe(name)) return check(name);
        if (name == kProbeRandom || name == kProbeDiscard) return std::nullopt;
        return std::string(unknown(name).what());
      },
      .source_size =
          [size = std::move(objects.source_size)](const std::string& name) {
            if (!is_probe(name)) return size(name);
            if (name == kProbeRandom) return kProbeObjectBytes;
            throw error::InvalidInput(name + " can only be written");
          },
      .destination_limit =
          [limit = std::move(objects.destination_limit)](const std::string& name) {
            if (!is_probe(name)) return limit(name);
            if (name == kProbeDiscard) return std::numeric_limits<std::uint64_t>::max();
            throw error::InvalidInput(name + " can only be read");
          },
  };
}

}  // namespace baton::agent
