// The kernel's debugger as xeus sees it: an `xeus::xdebugger` whose requests go to the
// NotebookDebugger and whose events go out on IOPub as `debug_event` messages.
#pragma once

#include "jupyter-kernel/notebook_debugger.h"
#include "xeus/xkernel.hpp"

namespace relay::kernel {

// The debugger builder to hand to `xeus::xkernel`. xeus takes a plain function pointer,
// so `debugger` is remembered process-wide; it must outlive the kernel.
xeus::xkernel::debugger_builder debugger_builder(NotebookDebugger& debugger);

}  // namespace relay::kernel
