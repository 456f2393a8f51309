#include "tests/support/daemon.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace baton::test {

Daemon::Daemon(const std::vector<std::string>& argv, std::string log_path) : log_path_(std::move(log_path)) {
  if (argv.empty()) throw std::invalid_argument("Daemon: empty argv");
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int log = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log < 0) throw std::runtime_error("Daemon: cannot open " + log_path_);
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("Daemon: fork failed");
  if (pid_ == 0) {
    signal(SIGPIPE, SIG_DFL);
    const int null = ::open("/dev/null", O_RDONLY);
    dup2(null, 0);
    dup2(log, 1);
    dup2(log, 2);
    execv(args[0], args.data());
    _exit(127);
  }
  ::close(log);
}

Daemon::~Daemon() { stop(); }

bool Daemon::running() {
  if (status_ >= 0) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) {
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return false;
  }
  return true;
}

int Daemon::stop(std::chrono::milliseconds grace) {
  if (!running()) return status_;
  kill(pid_, SIGTERM);
  if (!wait_exit(grace)) {
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    status_ = 128 + SIGKILL;
  }
  return status_;
}

bool Daemon::wait_exit(std::chrono::milliseconds timeout) {
  if (!running()) return true;
  // Unreaped, the process keeps its pid, so the pidfd refers to it even if it exits now.
  const int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
  if (fd < 0) throw std::runtime_error(std::string("pidfd_open: ") + std::strerror(errno));
  pollfd exit{.fd = fd, .events = POLLIN, .revents = 0};  // readable once the process has exited
  while (::poll(&exit, 1, static_cast<int>(timeout.count())) < 0 && errno == EINTR) {
  }
  ::close(fd);
  return !running();
}

std::string Daemon::log() const {
  std::ifstream file(log_path_);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace baton::test
