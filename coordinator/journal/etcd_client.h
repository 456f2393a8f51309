// A client of etcd's v3 API through its JSON gateway (POST /v3/kv/range, /v3/kv/txn,
// /v3/lease/*, /v3/watch on the client URL; docs/ha.md says why the gateway and not
// gRPC). Keys and values are bytes here; the client encodes them in base64. One request
// at a time: each user (the journal, the election) keeps its own client.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace httplib {
class Client;
}

namespace baton::journal {

// etcd could not be reached, or refused a request; what() names the endpoint(s) and why.
class EtcdError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct EtcdOptions {
  std::vector<std::string> endpoints;       // client URLs, "http://host:port"; tried in turn
  std::chrono::milliseconds timeout{5000};  // one request's connect, read and write
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

  // Where requests go first now (the endpoint that last answered).
  const std::string& endpoint() const;
  const EtcdOptions& options() const { return options_; }

 private:
  // POSTs `body` to `path` on the current endpoint, then the others; the answer's JSON.
  nlohmann::json call(const std::string& path, const nlohmann::json& body);
  httplib::Client& client(std::size_t index);

  EtcdOptions options_;
  std::size_t current_ = 0;
  std::vector<std::unique_ptr<httplib::Client>> clients_;
};

}  // namespace baton::journal
