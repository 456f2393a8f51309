#include "coordinator/batonctl/api_client.h"

#include <httplib.h>

#include <chrono>
#include <utility>

namespace baton::batonctl {

using json::Json;

namespace {

void configure(httplib::Client& client, const std::string& url, const std::string& token) {
  if (!client.is_valid()) throw ConnectionError("cannot reach the coordinator at " + url + ": bad URL");
  client.set_connection_timeout(std::chrono::seconds(5));
  client.set_read_timeout(std::chrono::seconds(30));
  client.set_write_timeout(std::chrono::seconds(30));
  if (!token.empty()) client.set_bearer_token_auth(token);
}

Json answer_of(const httplib::Result& result, const std::string& url) {
  if (!result) {
    throw ConnectionError("cannot reach the coordinator at " + url + ": " + httplib::to_string(result.error()));
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

ApiClient::ApiClient(std::string url, std::string token) : url_(std::move(url)), token_(std::move(token)) {
  while (!url_.empty() && url_.back() == '/') url_.pop_back();
}

Json ApiClient::get(const std::string& path) const {
  httplib::Client client(url_);
  configure(client, url_, token_);
  return answer_of(client.Get(path), url_);
}

Json ApiClient::post(const std::string& path, const Json& body) const {
  httplib::Client client(url_);
  configure(client, url_, token_);
  return answer_of(client.Post(path, body.dump(), "application/json"), url_);
}

}  // namespace baton::batonctl
