// The kernel's ZeroMQ server: xeus's split server with the shell on the main thread
// (`xserver_shell_main`: control requests on their own thread, so the debugger answers
// while a cell runs or is stopped at a breakpoint, notebook_debugger.h), plus telling
// the interrupt watcher when an execute request starts and stops being busy.
//
// xeus publishes a request's `busy` status, and for an execution its `execute_input`,
// before it calls the interpreter, so the interpreter learns of an execution only after
// a client may already have interrupted it. Publishing goes through the server, on the
// thread that handles the request; this is the one place that sees `busy` before it
// leaves the kernel, and `idle` once the reply is sent (interrupt_watcher.h says why).
#pragma once

#include "jupyter-kernel/interrupt_watcher.h"
#include "xeus/xkernel.hpp"

namespace relay::kernel {

// The server builder to hand to `xeus::xkernel`; its servers arm and disarm
// `interrupts`. xeus takes a plain function pointer, so `interrupts` is remembered
// process-wide (there is one watcher per process); it must outlive the kernel.
xeus::xkernel::server_builder server_builder(InterruptWatcher& interrupts);

}  // namespace relay::kernel
