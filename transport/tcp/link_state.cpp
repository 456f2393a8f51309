#include "transport/tcp/link_state.h"

#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace baton::transport::tcp {
namespace {

std::string seconds(std::uint32_t value, double unit) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", value * unit);
  return text;
}

}  // namespace

std::string link_state(int socket) {
  tcp_info info{};
  socklen_t size = sizeof info;
  if (::getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &size) != 0 || size < sizeof info) return {};
  int queued = 0;  // bytes in the send queue, sent or not
  if (::ioctl(socket, SIOCOUTQ, &queued) != 0) queued = 0;
  std::string text = "TCP: ";
  if (info.tcpi_state != TCP_ESTABLISHED) text += "state " + std::to_string(info.tcpi_state) + ", ";
  if (info.tcpi_unacked == 0 && queued > 0) {
    // Nothing in flight although bytes wait: the peer's kernel acknowledges (window probes)
    // but advertises a zero window, so its application reads nothing.
    text += "the peer's receive window is closed (it reads nothing), " + std::to_string(queued) + " bytes waiting, ";
  } else if (info.tcpi_retransmits > 0) {
    // RTO back-off: segments or their acks are lost, and each timeout doubles the next wait.
    text += std::to_string(info.tcpi_retransmits) + " retransmission timeouts in a row (next in " +
            seconds(info.tcpi_rto, 1e-6) + "), ";
  }
  text += std::to_string(info.tcpi_unacked) + " segments unacknowledged, " + std::to_string(info.tcpi_total_retrans) +
          " retransmitted in all, last data received " + seconds(info.tcpi_last_data_recv, 1e-3) + " ago, last ack " +
          seconds(info.tcpi_last_ack_recv, 1e-3) + " ago";
  // How the kernel sends (docs/transport.md, "Congestion control").
  char congestion[16] = {};
  socklen_t length = sizeof congestion - 1;
  if (::getsockopt(socket, IPPROTO_TCP, TCP_CONGESTION, congestion, &length) == 0) {
    text += ", congestion control " + std::string(congestion, ::strnlen(congestion, length));
  }
  return text;
}

}  // namespace baton::transport::tcp
