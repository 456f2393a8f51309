#include "coordinator/batonctl/api_client.h"

#include "coordinator/batonctl/coordinator_url.h"
#include "coordinator/batonctl/redirect.h"
#include "error/error.h"

#include <httplib.h>

#include <chrono>
#include <utility>

namespace baton::batonctl {

using json::Json;

namespace {

void configure(httplib::Client& client, const std::string& token) {
  client.set_connection_timeout(std::chrono::seconds(5));
  client.set_read_timeout(std::chrono::seconds(30));
  client.set_write_timeout(std::chrono::seconds(30));
  if (!token.empty()) client.set_bearer_token_auth(token);
}

// What went wrong in words, for the errors cpp-httplib names with one word.
std::string failure_of(httplib::Error error, const CoordinatorUrl& url) {
  switch (error) {
    case httplib::Error::Connection: return connection_failure(url);
    case httplib::Error::ConnectionTimeout: return "connection timed out after 5 s";
    case httplib::Error::Read: return "no answer within 30 s, or the connection closed";
    case httplib::Error::Write: return "the request could not be sent";
    default: return httplib::to_string(error);
  }
}

Json answer_of(const httplib::Result& result, const CoordinatorUrl& url) {
  if (!result) {
    throw ConnectionError("cannot reach the coordinator at " + url.text + ": " + failure_of(result.error(), url));
  }
  const int status = result->status;
  Json body = Json::parse(result->body, nullptr, /*allow_exceptions=*/false);
  if (status >= 400) {
    if (body.is_object() && body.contains("error") && body["error"].is_string()) {
      throw ApiError(status, body["error"].get<std::string>());
    }
    throw ApiError(status, "the coordinator answered HTTP " + std::to_string(status));
  }
  if (body.is_discarded()) {
    throw ApiError(status, "the coordinator answered HTTP " + std::to_string(status) + " with a body that is not JSON");
  }
  return body;
}

}  // namespace

ApiClient::ApiClient(const std::string& url, std::string token) : token_(std::move(token)) {
  for (std::size_t from = 0;;) {
    const std::size_t comma = url.find(',', from);
    urls_.push_back(parse_coordinator_url(url.substr(from, comma == std::string::npos ? comma : comma - from)));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
}

Json ApiClient::send(const std::string& path, const Request& request) const {
  std::string failures;
  for (std::size_t i = 0; i < urls_.size(); ++i) {
    const std::size_t index = (current_ + i) % urls_.size();
    const CoordinatorUrl& url = urls_[index];
    httplib::Client client(url.host, url.port);
    configure(client, token_);
    httplib::Result result = request(client, path);
    const bool unsent = !result && (result.error() == httplib::Error::Connection ||
                                    result.error() == httplib::Error::ConnectionTimeout);
    if (unsent && urls_.size() > 1) {
      failures += (failures.empty() ? "" : "; ") + url.text + ": " + failure_of(result.error(), url);
      continue;
    }
    current_ = index;
    return follow(std::move(result), request);
  }
  throw ConnectionError("cannot reach any coordinator: " + failures);
}

Json ApiClient::follow(httplib::Result result, const Request& request) const {
  CoordinatorUrl answered = urls_[current_];
  for (int hops = 0; result && (result->status == 307 || result->status == 308); ++hops) {
    const std::string location = result->get_header_value("Location");
    if (hops == kMaxRedirects) {
      throw ApiError(result->status, "more than " + std::to_string(kMaxRedirects) +
                                         " redirects between the coordinators (the last to " + location +
                                         "): they do not agree which leads");
    }
    Redirect next;
    try {
      next = parse_redirect(location);
    } catch (const error::InvalidInput& e) {
      throw ApiError(result->status, answered.text + " answered with " + e.what());
    }
    answered = next.coordinator;
    httplib::Client client(answered.host, answered.port);
    configure(client, token_);
    result = request(client, next.target);  // the same method and body, to the leader
  }
  return answer_of(result, answered);
}

Json ApiClient::get(const std::string& path) const {
  return send(path, [](httplib::Client& client, const std::string& target) { return client.Get(target); });
}

Json ApiClient::post(const std::string& path, const Json& body) const {
  const std::string text = body.dump();
  return send(path, [&text](httplib::Client& client, const std::string& target) {
    return client.Post(target, text, "application/json");
  });
}

Json ApiClient::remove(const std::string& path) const {
  return send(path, [](httplib::Client& client, const std::string& target) { return client.Delete(target); });
}

}  // namespace baton::batonctl
