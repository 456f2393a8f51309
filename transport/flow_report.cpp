#include <sstream>

#include "transport/flow.h"

namespace baton::transport {

std::string FlowReport::describe() const {
  std::ostringstream out;
  out << "flow job " << flow.job << " step " << flow.step << " [" << flow.offset << ", " << flow.end() << ") with "
      << (peer.empty() ? "unknown peer" : peer) << ": ";
  if (ok()) {
    out << "ok, " << bytes_verified << " bytes verified";
  } else {
    out << error.message();
    if (!detail.empty()) out << " (" << detail << ")";
    out << "; " << bytes_verified << " bytes verified";
  }
  return out.str();
}

}  // namespace baton::transport
