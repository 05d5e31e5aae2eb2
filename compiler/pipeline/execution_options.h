// How compiled graphs run (`relay run --device=cuda --tune-tiles --profile`): what the
// pipeline (compile_function.h) hands each Executable or GpuExecutable it builds.
#pragma once

namespace relay::cuda {
class Device;
}

namespace relay::compiler {

class TileTuner;

struct ExecutionOptions {
  cuda::Device* gpu = nullptr;  // null: on the CPU; else on this GPU (gpu_executable.h)
  TileTuner* tiles = nullptr;   // GPU: the products' and convolutions' tiles are its
                                // measured choices (--tune-tiles), else the rules'
  bool profile = false;         // time every group (GPU: every kernel launch, the calls run
                                // kernel by kernel) and list the heaviest (kernel_profile.h)
};

}  // namespace relay::compiler
