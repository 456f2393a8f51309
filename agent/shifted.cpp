#include "agent/shifted.h"

namespace baton::agent {

bool ShiftedSource::inside(std::uint64_t offset, std::uint64_t length) const noexcept {
  return offset >= stream_ && length <= length_ && offset - stream_ <= length_ - length;
}

std::optional<std::span<const std::byte>> ShiftedSource::view(std::uint64_t offset, std::size_t length) const {
  if (!inside(offset, length)) return std::nullopt;
  auto bytes = source_.view(offset_ + (offset - stream_), length);
  if (bytes && moved_ != nullptr) *moved_ += length;
  return bytes;
}

std::error_code ShiftedSource::read(std::uint64_t offset, std::span<std::byte> into) const {
  if (!inside(offset, into.size())) return std::make_error_code(std::errc::invalid_argument);
  const std::error_code error = source_.read(offset_ + (offset - stream_), into);
  if (!error && moved_ != nullptr) *moved_ += into.size();
  return error;
}

std::error_code ShiftedSink::write(std::uint64_t offset, std::span<const std::byte> bytes) {
  if (offset < stream_ || bytes.size() > length_ || offset - stream_ > length_ - bytes.size()) {
    return std::make_error_code(std::errc::invalid_argument);
  }
  const std::error_code error = sink_.write(offset_ + (offset - stream_), bytes);
  if (!error && moved_ != nullptr) *moved_ += bytes.size();
  return error;
}

}  // namespace baton::agent
