// A standby coordinator's HTTP API (docs/ha.md, "Agents and operators"): served at the
// same api_address the coordinator serves as leader, while it campaigns. The reads the
// shared journal holds it answers itself (StandbyView); every other request gets 307
// Temporary Redirect to the same path on the leader's API (named by `<prefix>leader`), or
// 503 when no coordinator leads. The token is checked as the leader checks it.
#pragma once

#include "coordinator/daemon/standby_view.h"
#include "http/server_thread.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace baton::coordinator {

class StandbyApi {
 public:
  struct Options {
    std::string id;          // this coordinator's, for the messages
    std::string leader_key;  // `<prefix>leader`, for the messages
    std::string token;       // "": no authorization required
  };
  // `leader`: the value `<prefix>leader` holds now, nullopt when no coordinator leads;
  // called for each request sent on (on the server's threads); may throw (etcd cannot be
  // reached: 503 naming why). `metrics`: the standby's /metrics text.
  StandbyApi(StandbyView& view, std::function<std::optional<std::string>()> leader,
             std::function<std::string()> metrics, Options options);
  ~StandbyApi();

  // Binds "host:port" and serves. Throws an error::Error naming it.
  void start(const std::string& address);
  void stop();
  std::string address() const { return serving_.address(); }
  void set_token(std::string token);

 private:
  // Answers a request the standby does not: 307 to the leader, or 503 saying why not.
  void send_on(const httplib::Request& request, httplib::Response& response) const;

  StandbyView& view_;
  std::function<std::optional<std::string>()> leader_;
  std::function<std::string()> metrics_;
  Options options_;
  mutable std::mutex token_mutex_;  // the server's threads read options_.token
  std::unique_ptr<httplib::Server> server_;
  http::ServerThread serving_;
};

}  // namespace baton::coordinator
