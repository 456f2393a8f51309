// A client of etcd's v3 API through its JSON gateway (POST /v3/kv/range, /v3/kv/txn,
// /v3/lease/*, /v3/watch on the client URL; docs/ha.md says why the gateway and not
// gRPC). Keys and values are bytes here; the client encodes them in base64. One request
// at a time: each user (the journal, the election) keeps its own client.
#pragma once

#include "error/error.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace httplib {
class Client;
}

namespace baton::journal {

// etcd could not be reached, or refused a request; what() names the endpoint(s) and why.
class EtcdError : public error::SystemError {
 public:
  using error::SystemError::SystemError;
};

// TLS and authentication as etcd offers them (docs/ha.md, "TLS and authentication").
struct EtcdSecurity {
  std::string ca_file;    // https: the CA that signed the members' certificates; empty: the system's CAs
  std::string cert_file;  // https: this client's certificate and its key (mutual TLS); both or neither
  std::string key_file;
  std::string user;  // etcd's authentication: a user and its password; empty: none
  std::string password;
};

struct EtcdOptions {
  std::vector<std::string> endpoints;       // client URLs, "http://host:port" or "https://host:port"; tried in turn
  std::chrono::milliseconds timeout{5000};  // one request's connect, read and write
  EtcdSecurity security{};                  // {}: designated initializers may leave it out
};

struct KeyValue {
  std::string key;
  std::string value;
  std::int64_t create_revision = 0;
  std::int64_t mod_revision = 0;
  std::int64_t lease = 0;
};

// The operations and comparisons of a transaction, in the gateway's JSON.
namespace etcd {
using Json = nlohmann::json;
Json put(const std::string& key, const std::string& value, std::int64_t lease = 0);
Json get(const std::string& key);
Json get_prefix(const std::string& prefix);
Json remove(const std::string& key);
// Holds when `key` was created at `revision` (0: the key does not exist).
Json created_at(const std::string& key, std::int64_t revision);
// Holds when `key` exists.
Json exists(const std::string& key);
// Holds when `key` was last modified at `revision` (0: the key does not exist).
Json modified_at(const std::string& key, std::int64_t revision);
// The first key after every key that starts with `prefix` (etcd's range_end).
std::string prefix_end(const std::string& prefix);
}  // namespace etcd

struct TxnResult {
  bool succeeded = false;
  std::int64_t revision = 0;  // the store's revision after the transaction
  // Each operation's key-values, in order (empty for puts and deletes).
  std::vector<std::vector<KeyValue>> ranges;
};

class EtcdClient {
 public:
  explicit EtcdClient(EtcdOptions options);
  ~EtcdClient();
  EtcdClient(const EtcdClient&) = delete;
  EtcdClient& operator=(const EtcdClient&) = delete;

  std::vector<KeyValue> get(const std::string& key);
  std::vector<KeyValue> get_prefix(const std::string& prefix);
  TxnResult txn(const nlohmann::json& compare, const nlohmann::json& success,
                const nlohmann::json& failure = nlohmann::json::array());

  // A lease of `ttl_seconds`; returns its id.
  std::int64_t grant_lease(std::int64_t ttl_seconds);
  // Renews the lease once; its remaining TTL in seconds, 0 when it has expired.
  std::int64_t keep_alive(std::int64_t lease);
  void revoke_lease(std::int64_t lease);

  // Watches `key` from `from_revision` on: true once it is deleted (or expires with its
  // lease), or the watch cannot start there (that revision compacted: look again); false
  // when `wait` passes first.
  bool wait_deleted(const std::string& key, std::int64_t from_revision, std::chrono::milliseconds wait);

  // From any thread: the request in flight fails at once (its connection is shut down) and
  // every later one throws EtcdError saying `why`, without a connection (one that began in
  // the very instant of the call may still wait out its timeout). For a deposed leader's
  // journal: a write that etcd cannot answer must not hold the leader past its lease.
  void abandon(const std::string& why);

  // Where requests go first now (the endpoint that last answered).
  const std::string& endpoint() const;
  const EtcdOptions& options() const { return options_; }

 private:
  // POSTs `body` to `path` on the current endpoint, then the others; the answer's JSON.
  // With a user, each endpoint's request carries its token, got at first use and again
  // when etcd says it is no longer valid (expired, or auth re-enabled).
  nlohmann::json call(const std::string& path, const nlohmann::json& body);
  httplib::Client& client(std::size_t index);
  // A new client of `endpoint`: TLS as options_ say for https://, the timeouts set.
  std::unique_ptr<httplib::Client> connect(const std::string& endpoint) const;
  // The token of endpoint `index` (authenticating there first when it has none); "" without a user.
  // EtcdError naming etcd's refusal (a wrong password), or httplib's failure to reach it.
  const std::string& token(std::size_t index);

  // Throws EtcdError once abandon() was called.
  void check_not_abandoned();

  EtcdOptions options_;
  std::size_t current_ = 0;
  std::mutex clients_mutex_;  // clients_ and abandoned_: abandon() comes from another thread
  std::vector<std::unique_ptr<httplib::Client>> clients_;
  std::optional<std::string> abandoned_;
  std::vector<std::string> tokens_;  // per endpoint: etcd's simple tokens are a member's own
};

}  // namespace baton::journal
