// The build without oneDNN: every node keeps its reference kernel.
#include "compiler/dnnl/library_kernel.h"

namespace relay::compiler {

std::unique_ptr<LibraryKernel> make_library_kernel(const Graph&, NodeId, std::string* why) {
  if (why) *why = "built without oneDNN (RELAY_DNNL=OFF)";
  return nullptr;
}

std::unique_ptr<LibraryKernel> make_library_kernel(const Graph& g, const FusedGroup& group, unsigned,
                                                   std::string* why) {
  return make_library_kernel(g, group.master, why);
}

bool library_kernels_built() { return false; }

}  // namespace relay::compiler
