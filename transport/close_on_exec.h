// Sockets are close-on-exec, as every file Baton opens is (O_CLOEXEC): an application
// embedding an agent (agent/embedded.h) that starts a program (system(), MPI_Comm_spawn)
// must not hand it the agent's listening port or its kept connections, which the child
// would hold open after the agent closed them. Asio opens sockets without SOCK_CLOEXEC, so
// each is marked as soon as it exists; a fork in another thread between the two can still
// inherit it.
#pragma once

namespace baton::transport {

// Sets FD_CLOEXEC on the descriptor (a socket's native_handle()); a descriptor that is
// not open is left alone.
void close_on_exec(int descriptor) noexcept;

}  // namespace baton::transport
