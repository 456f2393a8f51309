#include "transport/fabric/endpoint.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <set>

#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>
#include <asio/post.hpp>

#include "transport/errors.h"
#include "transport/fabric/memory_registration.h"
#include "transport/fabric/rxm_defaults.h"

namespace baton::transport::fabric {
namespace {

constexpr unsigned spin_rounds = 64;
constexpr auto cancel_grace = std::chrono::milliseconds(1000);

std::string fi_error(const char* what, int rc) { return std::string(what) + ": " + fi_strerror(-rc); }

std::string available_providers() {
  fi_info* raw = nullptr;
  if (fi_getinfo(FI_VERSION(1, 9), nullptr, nullptr, 0, nullptr, &raw) != 0) return "none";
  InfoPtr all(raw);
  std::set<std::string> names;
  for (const fi_info* i = all.get(); i != nullptr; i = i->next) names.insert(i->fabric_attr->prov_name);
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
  return list.empty() ? "none" : list;
}

std::error_code map_completion_error(int error) {
  switch (error) {
    case 0: return {};
    case FI_ETRUNC: return errc::oversized_frame;
    case FI_ECONNREFUSED:
    case FI_ECONNRESET:
    case FI_ECONNABORTED:
    case FI_ENOTCONN:
    case FI_EHOSTUNREACH: return errc::peer_closed;
    default: return errc::fabric_error;
  }
}

}  // namespace

std::string to_hex(std::span<const std::byte> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  text.reserve(bytes.size() * 2);
  for (const std::byte b : bytes) {
    text.push_back(digits[static_cast<unsigned>(b) >> 4]);
    text.push_back(digits[static_cast<unsigned>(b) & 0xF]);
  }
  return text;
}

std::optional<std::vector<std::byte>> from_hex(const std::string& text) {
  if (text.empty() || text.size() % 2 != 0 || text.size() > 1024) return std::nullopt;
  const auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<std::byte> bytes(text.size() / 2);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const int high = nibble(text[2 * i]), low = nibble(text[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes[i] = static_cast<std::byte>(high * 16 + low);
  }
  return bytes;
}

Endpoint::Endpoint(asio::any_io_executor executor, std::string provider)
    : executor_(std::move(executor)), provider_(std::move(provider)) {}

Endpoint::~Endpoint() { shut(); }

void Endpoint::shut() noexcept {
  ep_.reset();
  orphans_.clear();
}

error::Result<std::unique_ptr<Endpoint>> Endpoint::open(asio::any_io_executor executor,
                                                        const EndpointOptions& options) {
  std::unique_ptr<Endpoint> self(new Endpoint(std::move(executor), options.provider));
  const auto failed = [&](std::error_code error, std::string detail) {
    return error::Result<std::unique_ptr<Endpoint>>{
        .error = error, .detail = "libfabric provider '" + options.provider + "': " + detail, .value = {}};
  };

  apply_rxm_memory_defaults();  // before libfabric's first fi_getinfo reads them
  InfoPtr hints(fi_allocinfo());
  if (!hints) return failed(std::make_error_code(std::errc::not_enough_memory), "fi_allocinfo failed");
  hints->caps = FI_TAGGED;
  hints->mode = FI_CONTEXT | FI_CONTEXT2;
  hints->ep_attr->type = FI_EP_RDM;
  hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_ALLOCATED | FI_MR_VIRT_ADDR | FI_MR_PROV_KEY;
  hints->domain_attr->threading = FI_THREAD_DOMAIN;
  hints->tx_attr->msg_order = FI_ORDER_SAS;
  hints->rx_attr->msg_order = FI_ORDER_SAS;
  hints->fabric_attr->prov_name = strdup(options.provider.c_str());  // freed by fi_freeinfo

  fi_info* raw = nullptr;
  const char* node = options.node.empty() ? nullptr : options.node.c_str();
  int rc = fi_getinfo(FI_VERSION(1, 9), node, nullptr, node != nullptr ? FI_SOURCE : 0, hints.get(), &raw);
  if (rc == -FI_ENODATA) {
    const std::string have = available_providers();
    const bool present = (", " + have + ",").find(", " + options.provider + ",") != std::string::npos;
    return error::Result<std::unique_ptr<Endpoint>>{
        .error = errc::provider_unavailable,
        .detail = present ? "libfabric provider '" + options.provider +
                                "' is present but not available for reliable tagged messaging" +
                                (node != nullptr ? " on " + options.node : std::string()) +
                                " (available providers: " + have + ")"
                          : "libfabric provider '" + options.provider +
                                "' is not available on this machine (available providers: " + have + ")",
        .value = {}};
  }
  if (rc != 0) return failed(errc::fabric_error, fi_error("fi_getinfo", rc));
  self->info_.reset(raw);
  fi_info* info = self->info_.get();

  fid_fabric* fabric = nullptr;
  if ((rc = fi_fabric(info->fabric_attr, &fabric, nullptr)) != 0)
    return failed(errc::fabric_error, fi_error("fi_fabric", rc));
  self->fabric_.reset(fabric);
  fid_domain* domain = nullptr;
  if ((rc = fi_domain(fabric, info, &domain, nullptr)) != 0)
    return failed(errc::fabric_error, fi_error("fi_domain", rc));
  self->domain_.reset(domain);

  fi_cq_attr cq_attr{};
  cq_attr.format = FI_CQ_FORMAT_TAGGED;
  cq_attr.wait_obj = FI_WAIT_NONE;
  fid_cq* cq = nullptr;
  if ((rc = fi_cq_open(domain, &cq_attr, &cq, nullptr)) != 0)
    return failed(errc::fabric_error, fi_error("fi_cq_open", rc));
  self->cq_.reset(cq);

  fi_av_attr av_attr{};
  av_attr.type = info->domain_attr->av_type != FI_AV_UNSPEC ? info->domain_attr->av_type : FI_AV_MAP;
  av_attr.count = 256;
  fid_av* av = nullptr;
  if ((rc = fi_av_open(domain, &av_attr, &av, nullptr)) != 0)
    return failed(errc::fabric_error, fi_error("fi_av_open", rc));
  self->av_.reset(av);

  fid_ep* ep = nullptr;
  if ((rc = fi_endpoint(domain, info, &ep, nullptr)) != 0)
    return failed(errc::fabric_error, fi_error("fi_endpoint", rc));
  self->ep_.reset(ep);
  if ((rc = fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV)) != 0)
    return failed(errc::fabric_error, fi_error("fi_ep_bind(cq)", rc));
  if ((rc = fi_ep_bind(ep, &av->fid, 0)) != 0) return failed(errc::fabric_error, fi_error("fi_ep_bind(av)", rc));
  if ((rc = fi_enable(ep)) != 0) return failed(errc::fabric_error, fi_error("fi_enable", rc));
  return {.error = {}, .detail = {}, .value = std::move(self)};
}

std::string Endpoint::address() const {
  std::array<std::byte, 256> name{};
  std::size_t length = name.size();
  if (fi_getname(&ep_->fid, name.data(), &length) != 0 || length > name.size()) return {};
  return to_hex(std::span<const std::byte>(name).first(length));
}

bool Endpoint::needs_local_descriptors() const noexcept {
  return (info_->domain_attr->mr_mode & FI_MR_LOCAL) != 0 || (info_->mode & FI_LOCAL_MR) != 0;
}

std::size_t Endpoint::send_iov_limit() const noexcept { return info_->tx_attr->iov_limit; }

std::optional<fi_addr_t> Endpoint::insert(const std::string& hex_address, std::string& detail) {
  const auto bytes = from_hex(hex_address);
  if (!bytes) {
    // Appended, not "'" + substr(...): GCC 12 warns -Wrestrict on that at -O3 (a false
    // positive, GCC bug 105329).
    detail = "'";
    detail += hex_address.substr(0, 64);
    detail += "' is not a libfabric address in hex";
    return std::nullopt;
  }
  fi_addr_t address = FI_ADDR_NOTAVAIL;
  const int inserted = fi_av_insert(av_.get(), bytes->data(), 1, &address, 0, nullptr);
  if (inserted != 1) {
    detail = "fi_av_insert refused the address " + hex_address.substr(0, 64);
    return std::nullopt;
  }
  return address;
}

std::string Endpoint::describe(fi_addr_t peer) const {
  std::array<std::byte, 256> name{};
  std::size_t length = name.size();
  if (fi_av_lookup(av_.get(), peer, name.data(), &length) != 0 || length > name.size()) return provider_ + " peer";
  std::array<char, 256> text{};
  std::size_t text_length = text.size();
  fi_av_straddr(av_.get(), name.data(), text.data(), &text_length);
  return provider_ + " " + std::string(text.data(), strnlen(text.data(), text.size()));
}

std::unique_ptr<Operation> Endpoint::make_operation() const { return std::make_unique<Operation>(executor_); }

void* Endpoint::heap_memory(Operation& op, std::size_t size) const {
  if (op.heap.size() < size) {
    op.heap.resize(size);
    op.heap_registration.reset();
    op.heap_descriptor = nullptr;
  }
  if (needs_local_descriptors() && !op.heap_registration) {
    const auto registration = domain_registration(domain_.get())(op.heap);
    op.heap_registration = registration.handle;
    op.heap_descriptor = registration.descriptor;
  }
  return op.heap_descriptor;
}

void Endpoint::complete(void* op_context, int error, std::size_t length, std::string text) {
  if (op_context == nullptr) return;
  Operation* op = static_cast<OperationContext*>(op_context)->owner;
  if (op->orphaned) {
    std::erase_if(orphans_, [op](const auto& kept) { return kept.get() == op; });
    return;
  }
  op->done = true;
  op->error = error;
  op->length = length;
  op->error_text = std::move(text);
  op->signal.cancel();
}

std::size_t Endpoint::poll() {
  std::array<fi_cq_tagged_entry, 16> entries{};
  std::size_t total = 0;
  for (;;) {
    const ssize_t n = fi_cq_read(cq_.get(), entries.data(), entries.size());
    if (n > 0) {
      for (ssize_t i = 0; i < n; ++i) complete(entries[i].op_context, 0, entries[i].len, {});
      total += static_cast<std::size_t>(n);
      continue;
    }
    if (n == -FI_EAVAIL) {
      fi_cq_err_entry error{};
      if (fi_cq_readerr(cq_.get(), &error, 0) <= 0) break;
      std::array<char, 256> text{};
      const char* said = fi_cq_strerror(cq_.get(), error.prov_errno, error.err_data, text.data(), text.size());
      complete(error.op_context, error.err, error.len,
               std::string(fi_strerror(error.err)) + (said != nullptr ? std::string(" (") + said + ")" : ""));
      ++total;
      continue;
    }
    break;  // -FI_EAGAIN: nothing more now
  }
  return total;
}

void Endpoint::abandon(Operation& op) noexcept {
  op.abandoned = true;
  op.signal.cancel();
}

asio::awaitable<bool> Endpoint::wait(Operation& op, time_point deadline, bool until_abandoned) {
  unsigned idle = 0;
  while (!op.done) {
    if (poll() > 0) {
      idle = 0;
      continue;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline || (until_abandoned && op.abandoned)) co_return false;
    if (idle < spin_rounds) {
      ++idle;
      co_await asio::post(executor_, asio::use_awaitable);
      continue;
    }
    const auto nap = std::min<std::chrono::nanoseconds>(
        std::chrono::microseconds(10) * (1u << std::min(idle - spin_rounds, 7u)), std::chrono::milliseconds(1));
    ++idle;
    op.signal.expires_at(std::min<time_point>(now + nap, deadline));
    co_await op.signal.async_wait(use_nothrow);
  }
  co_return true;
}

asio::awaitable<error::Status> Endpoint::execute(std::unique_ptr<Operation>& op, const std::function<ssize_t()>& post,
                                                 time_point deadline) {
  for (;;) {
    const ssize_t rc = post();
    if (rc == 0) break;
    if (rc != -FI_EAGAIN)
      co_return error::Status{errc::fabric_error, fi_error("posting an operation", static_cast<int>(rc))};
    poll();  // -FI_EAGAIN: drive progress, then retry
    if (op->abandoned) co_return error::Status{errc::connection_failed, {}};
    if (std::chrono::steady_clock::now() >= deadline)
      co_return error::Status{errc::idle_timeout, "the provider stayed busy (FI_EAGAIN)"};
    co_await asio::post(executor_, asio::use_awaitable);
  }
  if (co_await wait(*op, deadline, true)) {
    co_return error::Status{map_completion_error(op->error), op->error_text};
  }
  // Timed out, or its connection closed: take the operation back before its memory can be
  // reused (the grace is a deadline of its own, which a close during it does not end).
  const errc ended = op->abandoned ? errc::connection_failed : errc::idle_timeout;
  fi_cancel(&ep_->fid, &op->context);
  if (co_await wait(*op, std::chrono::steady_clock::now() + cancel_grace, false)) co_return error::Status{ended, {}};
  op->orphaned = true;
  orphans_.push_back(std::move(op));
  co_return error::Status{ended, "libfabric kept the operation after cancel; its buffer stays out of the pool"};
}

}  // namespace baton::transport::fabric
