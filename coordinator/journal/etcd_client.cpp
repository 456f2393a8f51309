#include "coordinator/journal/etcd_client.h"

#include "error/error.h"
#include "http/base64.h"

#include <httplib.h>

#include <optional>
#include <stdexcept>

namespace baton::journal {

using Json = nlohmann::json;
using http::base64_encode;

namespace etcd {

Json put(const std::string& key, const std::string& value, std::int64_t lease) {
  Json op{{"key", base64_encode(key)}, {"value", base64_encode(value)}};
  if (lease != 0) op["lease"] = std::to_string(lease);
  return {{"request_put", op}};
}

Json get(const std::string& key) { return {{"request_range", {{"key", base64_encode(key)}}}}; }

Json get_prefix(const std::string& prefix) {
  return {{"request_range", {{"key", base64_encode(prefix)}, {"range_end", base64_encode(prefix_end(prefix))}}}};
}

Json remove(const std::string& key) { return {{"request_delete_range", {{"key", base64_encode(key)}}}}; }

Json created_at(const std::string& key, std::int64_t revision) {
  return {{"target", "CREATE"},
          {"key", base64_encode(key)},
          {"result", "EQUAL"},
          {"create_revision", std::to_string(revision)}};
}

Json exists(const std::string& key) {
  return {{"target", "CREATE"}, {"key", base64_encode(key)}, {"result", "GREATER"}, {"create_revision", "0"}};
}

Json modified_at(const std::string& key, std::int64_t revision) {
  return {
      {"target", "MOD"}, {"key", base64_encode(key)}, {"result", "EQUAL"}, {"mod_revision", std::to_string(revision)}};
}

std::string prefix_end(const std::string& prefix) {
  std::string end = prefix;
  while (!end.empty()) {
    if (static_cast<unsigned char>(end.back()) != 0xff) {
      end.back() = static_cast<char>(static_cast<unsigned char>(end.back()) + 1);
      return end;
    }
    end.pop_back();
  }
  return std::string(1, '\0');  // every key: etcd's "\0" range end
}

}  // namespace etcd

namespace {

// The gateway writes int64 fields as strings and leaves out zero values.
std::int64_t number(const Json& object, const char* field) {
  const auto at = object.find(field);
  if (at == object.end()) return 0;
  if (at->is_string()) {
    try {
      return std::stoll(at->get<std::string>());
    } catch (const std::exception&) {
      throw EtcdError(std::string("etcd answered a field '") + field + "' that is not a number");
    }
  }
  if (at->is_number_integer()) return at->get<std::int64_t>();
  throw EtcdError(std::string("etcd answered a field '") + field + "' that is not a number");
}

std::string bytes(const Json& object, const char* field) {
  const auto at = object.find(field);
  if (at == object.end()) return {};
  if (!at->is_string()) throw EtcdError(std::string("etcd answered a field '") + field + "' that is not a string");
  try {
    return http::base64_decode(at->get<std::string>());
  } catch (const error::InvalidInput& e) {
    throw EtcdError(std::string("etcd answered a field '") + field + "' that is " + e.what());
  }
}

std::vector<KeyValue> key_values(const Json& range) {
  std::vector<KeyValue> out;
  const auto kvs = range.find("kvs");
  if (kvs == range.end()) return out;
  if (!kvs->is_array()) throw EtcdError("etcd answered 'kvs' that is not an array");
  for (const Json& kv : *kvs) {
    out.push_back({bytes(kv, "key"), bytes(kv, "value"), number(kv, "create_revision"), number(kv, "mod_revision"),
                   number(kv, "lease")});
  }
  return out;
}

// gRPC's "unavailable" (no leader, no quorum, shutting down): another member may answer.
constexpr int kUnavailable = 14;
// gRPC's "unauthenticated": the token expired or was dropped (auth disabled and enabled
// again, the member restarted): authenticate again.
constexpr int kUnauthenticated = 16;

void set_timeouts(httplib::Client& client, std::chrono::milliseconds timeout) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(timeout);
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(timeout - seconds);
  client.set_connection_timeout(seconds.count(), micros.count());
  client.set_read_timeout(seconds.count(), micros.count());
  client.set_write_timeout(seconds.count(), micros.count());
}

// gRPC's status code in etcd's error answer; 0 when there is none.
int code_of(const Json& answer) {
  const auto code = answer.is_object() ? answer.find("code") : answer.end();
  return code != answer.end() && code->is_number_integer() ? code->get<int>() : 0;
}

EtcdError abandoned(const std::string& why) { return EtcdError("etcd: requests abandoned: " + why); }

bool secure(const std::string& endpoint) { return endpoint.rfind("https://", 0) == 0; }

// An answer of etcd's gateway, or why none could be read.
struct Reply {
  std::optional<httplib::Error> failed;
  int status = 0;
  std::string body;
};

// POSTs `text` to `path`. etcd's gRPC errors end their chunked body with a trailer
// (Grpc-Trailer-Content-Type) that cpp-httplib 0.11 cannot read, and calls the read
// failed: the status and the whole body arrive before it, so an answer whose body is a
// whole JSON document is kept.
Reply post(httplib::Client& client, const std::string& path, const std::string& text,
           const std::string& authorization) {
  Reply reply;
  httplib::Request request;
  request.method = "POST";
  request.path = path;
  request.set_header("Content-Type", "application/json");
  if (!authorization.empty()) request.set_header("Authorization", authorization);
  request.body = text;
  request.response_handler = [&](const httplib::Response& response) {
    reply.status = response.status;
    return true;
  };
  request.content_receiver = [&](const char* data, std::size_t length, std::uint64_t, std::uint64_t) {
    reply.body.append(data, length);
    return true;
  };
  const httplib::Result result = client.send(request);
  if (!result) {
    const bool answered = result.error() == httplib::Error::Read && reply.status != 0 &&
                          !Json::parse(reply.body, nullptr, false).is_discarded();
    if (!answered) reply.failed = result.error();
  }
  return reply;
}

// etcd's refusal in one line: its message, or the HTTP status.
std::string message_of(const Json& answer, int status) {
  if (answer.is_object()) {
    for (const char* field : {"message", "error"}) {
      if (answer.contains(field) && answer.at(field).is_string()) return answer.at(field).get<std::string>();
    }
  }
  return "HTTP " + std::to_string(status);
}

}  // namespace

EtcdClient::EtcdClient(EtcdOptions options) : options_(std::move(options)) {
  if (options_.endpoints.empty()) throw error::InvalidInput("etcd: no endpoints");
  for (const std::string& e : options_.endpoints) {
    if (!(e.rfind("http://", 0) == 0 && e.size() > 7) && !(secure(e) && e.size() > 8)) {
      throw error::InvalidInput("etcd endpoint '" + e + "': expected http://host:port or https://host:port");
    }
  }
  const EtcdSecurity& security = options_.security;
  if (security.cert_file.empty() != security.key_file.empty())
    throw error::InvalidInput("etcd: a client certificate needs its key, and a key its certificate");
  clients_.resize(options_.endpoints.size());
  tokens_.resize(options_.endpoints.size());
}

EtcdClient::~EtcdClient() = default;

const std::string& EtcdClient::endpoint() const { return options_.endpoints[current_]; }

std::unique_ptr<httplib::Client> EtcdClient::connect(const std::string& endpoint) const {
  const EtcdSecurity& security = options_.security;
  auto c = secure(endpoint) && !security.cert_file.empty()
               ? std::make_unique<httplib::Client>(endpoint, security.cert_file, security.key_file)
               : std::make_unique<httplib::Client>(endpoint);
  if (secure(endpoint)) {
    c->enable_server_certificate_verification(true);  // the chain, and the host name against the certificate
    if (!security.ca_file.empty()) c->set_ca_cert_path(security.ca_file);
  }
  set_timeouts(*c, options_.timeout);
  c->set_tcp_nodelay(true);  // headers and body are two writes: no 40 ms Nagle wait on the second
  return c;
}

httplib::Client& EtcdClient::client(std::size_t index) {
  const std::lock_guard lock(clients_mutex_);
  if (abandoned_) throw abandoned(*abandoned_);
  if (!clients_[index]) {
    clients_[index] = connect(options_.endpoints[index]);
    clients_[index]->set_keep_alive(true);
  }
  return *clients_[index];
}

const std::string& EtcdClient::token(std::size_t index) {
  const EtcdSecurity& security = options_.security;
  if (security.user.empty() || !tokens_[index].empty()) return tokens_[index];
  const std::string& where = options_.endpoints[index];
  const Reply reply = post(client(index), "/v3/auth/authenticate",
                           Json{{"name", security.user}, {"password", security.password}}.dump(), "");
  if (reply.failed) return tokens_[index];  // unreachable: the request that follows says so
  const Json answer = Json::parse(reply.body, nullptr, false);
  if (code_of(answer) == kUnavailable) return tokens_[index];  // the same
  if (reply.status != 200 || !answer.is_object() || !answer.contains("token") || !answer.at("token").is_string()) {
    throw EtcdError("etcd " + where + " refused to authenticate user '" + security.user +
                    "': " + message_of(answer, reply.status));
  }
  tokens_[index] = answer.at("token").get<std::string>();
  return tokens_[index];
}

void EtcdClient::abandon(const std::string& why) {
  const std::lock_guard lock(clients_mutex_);
  abandoned_ = why;
  for (const auto& c : clients_) {
    if (c) c->stop();  // httplib: shuts the socket of a request in flight down, from any thread
  }
}

void EtcdClient::check_not_abandoned() {
  const std::lock_guard lock(clients_mutex_);
  if (abandoned_) throw abandoned(*abandoned_);
}

Json EtcdClient::call(const std::string& path, const Json& body) {
  const std::string text = body.dump();
  std::string failures;
  for (std::size_t i = 0; i < options_.endpoints.size(); ++i) {
    const std::size_t index = (current_ + i) % options_.endpoints.size();
    const std::string& where = options_.endpoints[index];
    const auto send = [&] { return post(client(index), path, text, token(index)); };
    Reply reply = send();
    // A token etcd no longer takes is dropped, and the request sent once more with a new one.
    if (!reply.failed && reply.status != 200 && !tokens_[index].empty() &&
        code_of(Json::parse(reply.body, nullptr, false)) == kUnauthenticated) {
      tokens_[index].clear();
      reply = send();
    }
    if (reply.failed) {
      check_not_abandoned();  // the failure was abandon()'s: say so, and try no other member
      std::string why = httplib::to_string(*reply.failed);
      if (*reply.failed == httplib::Error::SSLServerVerification)
        why += " (the member's certificate is not signed by etcd_ca_file's CA, or does not name " + where + ")";
      failures += (failures.empty() ? "" : "; ") + where + ": " + why;
      {
        const std::lock_guard lock(clients_mutex_);
        clients_[index].reset();  // a fresh connection next time
      }
      tokens_[index].clear();
      continue;
    }
    Json answer = Json::parse(reply.body, nullptr, false);
    if (answer.is_discarded() || !answer.is_object()) {
      throw EtcdError("etcd " + where + path + " answered " + std::to_string(reply.status) + " with no JSON object");
    }
    if (reply.status != 200) {
      const std::string message = answer.value("message", answer.value("error", std::string("no message")));
      if (code_of(answer) == kUnavailable) {
        failures += (failures.empty() ? "" : "; ") + where + ": " + message;
        continue;
      }
      throw EtcdError("etcd " + where + path + ": " + message);
    }
    current_ = index;
    return answer;
  }
  throw EtcdError("etcd: no endpoint answered " + path + " (" + failures + ")");
}

std::vector<KeyValue> EtcdClient::get(const std::string& key) {
  return key_values(call("/v3/kv/range", etcd::get(key).at("request_range")));
}

std::vector<KeyValue> EtcdClient::get_prefix(const std::string& prefix) {
  return key_values(call("/v3/kv/range", etcd::get_prefix(prefix).at("request_range")));
}

TxnResult EtcdClient::txn(const Json& compare, const Json& success, const Json& failure) {
  const Json answer = call("/v3/kv/txn", {{"compare", compare}, {"success", success}, {"failure", failure}});
  TxnResult out;
  out.succeeded = answer.value("succeeded", false);
  out.revision = answer.contains("header") ? number(answer.at("header"), "revision") : 0;
  if (const auto responses = answer.find("responses"); responses != answer.end() && responses->is_array()) {
    for (const Json& r : *responses) {
      const auto range = r.find("response_range");
      out.ranges.push_back(range == r.end() ? std::vector<KeyValue>{} : key_values(*range));
    }
  }
  return out;
}

std::int64_t EtcdClient::grant_lease(std::int64_t ttl_seconds) {
  const Json answer = call("/v3/lease/grant", {{"TTL", std::to_string(ttl_seconds)}});
  const std::int64_t id = number(answer, "ID");
  if (id == 0) throw EtcdError("etcd granted a lease without an ID");
  return id;
}

std::int64_t EtcdClient::keep_alive(std::int64_t lease) {
  const Json answer = call("/v3/lease/keepalive", {{"ID", std::to_string(lease)}});
  const auto result = answer.find("result");
  if (result == answer.end()) {
    const auto error = answer.find("error");
    throw EtcdError("etcd keepalive: " + (error == answer.end() ? answer.dump() : error->dump()));
  }
  return number(*result, "TTL");
}

void EtcdClient::revoke_lease(std::int64_t lease) { call("/v3/lease/revoke", {{"ID", std::to_string(lease)}}); }

bool EtcdClient::wait_deleted(const std::string& key, std::int64_t from_revision, std::chrono::milliseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  const std::string authorization = token(current_);
  const auto client = connect(endpoint());
  httplib::Client& watch = *client;
  const auto read_for = std::chrono::duration_cast<std::chrono::microseconds>(wait);
  watch.set_read_timeout(read_for.count() / 1'000'000, read_for.count() % 1'000'000);

  bool changed = false;
  std::string pending;
  httplib::Request request;
  request.method = "POST";
  request.path = "/v3/watch";
  request.set_header("Content-Type", "application/json");
  if (!authorization.empty()) request.set_header("Authorization", authorization);
  request.body =
      Json{{"create_request", {{"key", base64_encode(key)}, {"start_revision", std::to_string(from_revision)}}}}.dump();
  request.content_receiver = [&](const char* data, std::size_t length, std::uint64_t, std::uint64_t) {
    pending.append(data, length);
    for (std::size_t end; (end = pending.find('\n')) != std::string::npos; pending.erase(0, end + 1)) {
      const Json message = Json::parse(pending.substr(0, end), nullptr, false);
      if (!message.is_object()) continue;
      const auto result = message.find("result");
      if (result == message.end()) {
        changed = true;  // an error: the caller looks again
        return false;
      }
      if (result->value("canceled", false)) {
        changed = true;
        return false;
      }
      if (const auto events = result->find("events"); events != result->end() && events->is_array()) {
        for (const Json& event : *events) {
          if (event.value("type", "") == "DELETE") {
            changed = true;
            return false;
          }
        }
      }
    }
    if (pending.size() > (1u << 20)) {  // no newline in a megabyte: not the gateway's stream
      changed = true;
      return false;
    }
    return std::chrono::steady_clock::now() < deadline;
  };
  watch.send(request);  // ends by the receiver, the read timeout, or a broken connection
  return changed;
}

}  // namespace baton::journal
