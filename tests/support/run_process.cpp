#include "tests/support/run_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace baton::test {
namespace {

void check(int rc, const char* what) {
  if (rc < 0) throw std::runtime_error(std::string(what) + ": " + std::strerror(errno));
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input,
                          std::chrono::milliseconds timeout) {
  if (argv.empty()) throw std::invalid_argument("run_process: empty argv");
  // A child that exits before reading all of its input closes the pipe under us; the
  // write must then fail with EPIPE, not kill the test with SIGPIPE.
  static const bool sigpipe_ignored = [] { return signal(SIGPIPE, SIG_IGN) != SIG_ERR; }();
  if (!sigpipe_ignored) throw std::runtime_error("run_process: cannot ignore SIGPIPE");
  std::array<int, 2> in{}, out{}, err{};
  check(pipe2(in.data(), O_CLOEXEC), "pipe");
  check(pipe2(out.data(), O_CLOEXEC), "pipe");
  check(pipe2(err.data(), O_CLOEXEC), "pipe");

  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  const pid_t pid = fork();
  check(pid, "fork");
  if (pid == 0) {
    signal(SIGPIPE, SIG_DFL);  // an ignored signal would survive execv
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    execv(args[0], args.data());
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);

  ProcessResult result;
  std::size_t written = 0;
  int in_fd = in[1];
  if (input.empty()) {
    close(in_fd);
    in_fd = -1;
  } else {
    fcntl(in_fd, F_SETFL, O_NONBLOCK);
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool out_open = true, err_open = true;
  std::array<char, 65536> buf{};
  while (out_open || err_open) {
    std::array<pollfd, 3> fds{{{out[0], POLLIN, 0}, {err[0], POLLIN, 0}, {in_fd, POLLOUT, 0}}};
    fds[0].fd = out_open ? out[0] : -1;
    fds[1].fd = err_open ? err[0] : -1;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    const int n = poll(fds.data(), fds.size(), static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR) continue;
    check(n, "poll");
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = read(fds[i].fd, buf.data(), buf.size());
      if (got <= 0) {
        (i == 0 ? out_open : err_open) = false;
      } else {
        (i == 0 ? result.out : result.err).append(buf.data(), static_cast<std::size_t>(got));
      }
    }
    if (in_fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t put = write(in_fd, input.data() + written, input.size() - written);
      if (put > 0) written += static_cast<std::size_t>(put);
      if (put < 0 || written == input.size()) {
        close(in_fd);
        in_fd = -1;
      }
    }
  }
  if (in_fd >= 0) close(in_fd);
  close(out[0]);
  close(err[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  return result;
}

}  // namespace baton::test
