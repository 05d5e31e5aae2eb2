// `relay kernel -f CONNECTION_FILE`: serves one Jupyter session over ZeroMQ until a
// shutdown request.
#pragma once

#include <string>

namespace relay::kernel {

// Reads the connection file (transport, ip, ports, HMAC key), binds the five channels
// on that address only, and serves requests. Does not return after a shutdown request
// (xeus ends the process with status 0); returns 1 with a message on stderr when the
// connection file cannot be used.
int run_kernel(const std::string& connection_file);

}  // namespace relay::kernel
