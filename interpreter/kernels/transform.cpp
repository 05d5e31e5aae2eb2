#include "interpreter/kernels/kernel.h"

namespace relay::rt {

void register_transform_kernels(KernelTable&) {}

}  // namespace relay::rt
