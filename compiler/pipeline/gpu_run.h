// Where and how compiled graphs run on a GPU (`relay run --device=cuda`): what the
// pipeline (compile_function.h) hands each GpuExecutable it builds.
#pragma once

namespace relay::cuda {
class Device;
}

namespace relay::compiler {

class TileTuner;

struct GpuRun {
  cuda::Device* device = nullptr;  // null: compiled graphs run on the CPU
  TileTuner* tiles = nullptr;      // the products' and convolutions' tiles are its measured
                                   // choices (--tune-tiles), else the rules'
  bool profile = false;            // time every kernel launch, each call kernel by kernel
                                   // (--gpu-profile): run_notes lists the heaviest
};

}  // namespace relay::compiler
