// TLS and authentication to etcd (docs/ha.md, "TLS and authentication"), against real etcd
// processes on loopback: one serving only https:// with client certificates required
// (a CA, the server's and a client's certificates made by openssl in the test's temporary
// directory), one with etcd's user authentication enabled by etcdctl. And the
// configuration keys that ask for them, refused with the key named when wrong. Needs etcd,
// etcdctl and openssl on PATH (CMake's NEEDS: skipped, saying so, without them).
#include "coordinator/daemon/config.h"
#include "coordinator/journal/etcd_client.h"
#include "coordinator/journal/etcd_journal.h"
#include "error/error.h"
#include "tests/support/daemon.h"
#include "tests/support/etcd_cluster.h"
#include "tests/support/ports.h"
#include "tests/support/run_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tools.h"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <thread>

using baton::journal::EtcdClient;
using baton::journal::EtcdError;
using baton::journal::EtcdOptions;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

void write_text(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

void openssl(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv{baton::test::tool_path("openssl")};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const auto done = baton::test::run_process(argv);
  BOOST_REQUIRE_MESSAGE(done.exit_code == 0, "openssl " << arguments.front() << ": " << done.err);
}

// A CA `name` (name.crt, name.key) in `dir`.
void make_ca(const fs::path& dir, const std::string& name) {
  openssl({"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=" + name, "-keyout",
           (dir / (name + ".key")).string(), "-out", (dir / (name + ".crt")).string()});
}

// A certificate `name` (name.crt, name.key) signed by the CA `ca`, with `extensions`.
void make_certificate(const fs::path& dir, const std::string& name, const std::string& ca,
                      const std::string& extensions) {
  write_text(dir / (name + ".ext"), extensions);
  openssl({"req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=" + name, "-keyout", (dir / (name + ".key")).string(),
           "-out", (dir / (name + ".csr")).string()});
  openssl({"x509", "-req", "-in", (dir / (name + ".csr")).string(), "-CA", (dir / (ca + ".crt")).string(), "-CAkey",
           (dir / (ca + ".key")).string(), "-CAcreateserial", "-days", "1", "-extfile",
           (dir / (name + ".ext")).string(), "-out", (dir / (name + ".crt")).string()});
}

// One etcd member serving https:// only, client certificates signed by the test's CA
// required.
struct SecureEtcd {
  baton::test::TempDir dir{"baton-etcd-tls"};
  std::string endpoint = "https://127.0.0.1:" + std::to_string(baton::test::unused_loopback_port());
  std::unique_ptr<baton::test::Daemon> etcd;

  SecureEtcd() {
    make_ca(dir.path, "ca");
    make_ca(dir.path, "other-ca");
    // The gateway dials the member's own gRPC with the server's certificate: it is a
    // client's too.
    make_certificate(dir.path, "server", "ca", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n");
    make_certificate(dir.path, "coordinator", "ca", "extendedKeyUsage=clientAuth\n");
    const std::string peer = "http://127.0.0.1:" + std::to_string(baton::test::unused_loopback_port());
    etcd = std::make_unique<baton::test::Daemon>(std::vector<std::string>{baton::test::tool_path("etcd"),
                                                                          "--name",
                                                                          "s0",
                                                                          "--data-dir",
                                                                          (dir.path / "data").string(),
                                                                          "--listen-client-urls",
                                                                          endpoint,
                                                                          "--advertise-client-urls",
                                                                          endpoint,
                                                                          "--listen-peer-urls",
                                                                          peer,
                                                                          "--initial-advertise-peer-urls",
                                                                          peer,
                                                                          "--initial-cluster",
                                                                          "s0=" + peer,
                                                                          "--cert-file",
                                                                          file("server.crt"),
                                                                          "--key-file",
                                                                          file("server.key"),
                                                                          "--trusted-ca-file",
                                                                          file("ca.crt"),
                                                                          "--client-cert-auth"},
                                                 (dir.path / "etcd.log").string());
    // It is seen only by asking it: every 50 ms until it answers.
    EtcdClient client(options());
    for (const auto deadline = std::chrono::steady_clock::now() + 30s;;) {
      try {
        client.get("/ready");
        break;
      } catch (const EtcdError& e) {
        BOOST_REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, e.what() << "\n" << etcd->log());
      }
      std::this_thread::sleep_for(50ms);
    }
  }

  std::string file(const std::string& name) const { return (dir.path / name).string(); }

  EtcdOptions options() const {
    EtcdOptions o{.endpoints = {endpoint}, .timeout = 5s, .security = {}};
    o.security = {.ca_file = file("ca.crt"),
                  .cert_file = file("coordinator.crt"),
                  .key_file = file("coordinator.key"),
                  .user = "",
                  .password = ""};
    return o;
  }
};

std::string refusal(EtcdOptions options) {
  try {
    EtcdClient client(std::move(options));
    client.get("/anything");
  } catch (const EtcdError& e) {
    return e.what();
  }
  return "";
}

std::string etcdctl(const std::string& endpoint, const std::vector<std::string>& arguments) {
  std::vector<std::string> argv{baton::test::tool_path("etcdctl"), "--endpoints=" + endpoint};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const auto done = baton::test::run_process(argv);
  BOOST_REQUIRE_MESSAGE(done.exit_code == 0, "etcdctl: " << done.err);
  return done.out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(etcd_security)

BOOST_AUTO_TEST_CASE(mutual_tls_journals_and_watches_and_a_stranger_is_refused) {
  SecureEtcd etcd;
  baton::journal::EtcdJournal journal(etcd.options(), "/baton/tls/");
  const std::uint64_t id = journal.add_job(R"({"transfers":[]})");
  journal.set_state(id, "running");
  BOOST_TEST(journal.job(id)->state == "running");

  // The watch a standby waits on is a stream of its own, over TLS too.
  EtcdClient client(etcd.options());
  const auto put =
      client.txn(nlohmann::json::array(), nlohmann::json::array({baton::journal::etcd::put("/baton/tls/k", "v")}));
  client.txn(nlohmann::json::array(), nlohmann::json::array({baton::journal::etcd::remove("/baton/tls/k")}));
  BOOST_TEST(client.wait_deleted("/baton/tls/k", put.revision, 10s));

  EtcdOptions no_certificate = etcd.options();
  no_certificate.security.cert_file.clear();
  no_certificate.security.key_file.clear();
  BOOST_TEST(!refusal(no_certificate).empty());
  EtcdOptions other_ca = etcd.options();
  other_ca.security.ca_file = etcd.file("other-ca.crt");
  BOOST_TEST(refusal(other_ca).find("not signed by etcd_ca_file's CA") != std::string::npos, refusal(other_ca));
  EtcdOptions plain = etcd.options();
  plain.endpoints = {"http" + etcd.endpoint.substr(5)};
  BOOST_TEST(!refusal(plain).empty());
}

BOOST_AUTO_TEST_CASE(a_user_authenticates_and_again_when_its_token_is_dropped) {
  baton::test::EtcdCluster cluster{1};
  const std::string endpoint = cluster.endpoint(0);
  etcdctl(endpoint, {"user", "add", "root", "--new-user-password=root-password"});
  etcdctl(endpoint, {"auth", "enable"});
  EtcdOptions options{.endpoints = {endpoint}, .timeout = 5s, .security = {}};

  BOOST_TEST(!refusal(options).empty());  // no user: etcd refuses
  options.security.user = "root";
  options.security.password = "wrong";
  BOOST_TEST(refusal(options).find("refused to authenticate user 'root'") != std::string::npos, refusal(options));

  options.security.password = "root-password";
  baton::journal::EtcdJournal journal(options, "/baton/auth/");
  const std::uint64_t id = journal.add_job(R"({"transfers":[]})");
  BOOST_TEST(journal.job(id).has_value());
  // Auth disabled and enabled again drops every token: the next write authenticates anew.
  etcdctl(endpoint, {"--user=root:root-password", "auth", "disable"});
  etcdctl(endpoint, {"--user=root:root-password", "auth", "enable"});
  journal.set_state(id, "done");
  BOOST_TEST(journal.job(id)->state == "done");
}

BOOST_AUTO_TEST_SUITE_END()

// The configuration's keys for TLS and authentication: read relative to the file, and a
// wrong one named.
BOOST_AUTO_TEST_CASE(the_etcd_security_keys_load_and_a_wrong_one_is_named) {
  baton::test::TempDir dir{"baton-etcd-config"};
  write_text(dir.path / "secret", "a-secret-of-enough-length-0123456789\n");
  write_text(dir.path / "ca.crt", "not checked here: etcd's handshake checks it\n");
  write_text(dir.path / "etcd-password", "s3cret\n");
  const std::string head = "secret_file = \"secret\"\njournal = \"etcd\"\n";
  const auto load = [&](const std::string& text) {
    write_text(dir.path / "c.toml", head + text);
    return baton::coordinator::load_coordinator_config(dir.path / "c.toml");
  };
  const auto config = load(
      "etcd_endpoints = [\"https://10.0.0.11:2379\"]\netcd_ca_file = \"ca.crt\"\netcd_user = \"baton\"\n"
      "etcd_password_file = \"etcd-password\"\n");
  BOOST_TEST(config.etcd->security.ca_file == (dir.path / "ca.crt").string());
  BOOST_TEST(config.etcd->security.user == "baton");
  BOOST_TEST(config.etcd->security.password == "s3cret");

  const auto refused = [&](const std::string& text, const std::string& says) {
    try {
      load(text);
      BOOST_ERROR("no error for " + text);
    } catch (const baton::error::InvalidInput& e) {
      BOOST_TEST(std::string(e.what()).find(says) != std::string::npos, e.what());
    }
  };
  refused("etcd_endpoints = [\"ftp://x:1\"]\n", "etcd_endpoints: 'ftp://x:1' is not http://host:port or https://");
  refused("etcd_endpoints = [\"https://x:1\"]\netcd_ca_file = \"missing.crt\"\n", "etcd_ca_file: cannot read");
  refused("etcd_endpoints = [\"http://x:1\"]\netcd_ca_file = \"ca.crt\"\n",
          "etcd_ca_file is set but no etcd_endpoints is https://");
  refused("etcd_endpoints = [\"https://x:1\"]\netcd_cert_file = \"ca.crt\"\n",
          "etcd_cert_file and etcd_key_file go together");
  refused("etcd_endpoints = [\"http://x:1\"]\netcd_user = \"baton\"\n", "etcd_user needs etcd_password_file");
  refused("etcd_endpoints = [\"http://x:1\"]\netcd_password_file = \"etcd-password\"\n",
          "etcd_password_file is set but etcd_user is not");
  refused("etcd_endpoints = [\"http://x:1\"]\netcd_user = \"baton\"\netcd_password_file = \"nope\"\n",
          "etcd_password_file: cannot read");
}
