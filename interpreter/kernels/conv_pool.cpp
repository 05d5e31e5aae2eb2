#include "interpreter/kernels/kernel.h"

namespace relay::rt {

void register_conv_pool_kernels(KernelTable&) {}

}  // namespace relay::rt
