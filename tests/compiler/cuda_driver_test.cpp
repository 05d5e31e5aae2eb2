// The CUDA runtime layer where there is no usable driver (CI has no GPU): loading fails
// with a message that says why, nothing crashes, and the device count is 0. The test
// points RELAY_CUDA_DRIVER at the CUDA toolkit's stub libcuda (whose cuInit always fails)
// when the machine has the toolkit, else at a file that does not exist, so it exercises
// dlopen, symbol resolution and cuInit's failure on any machine.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "compiler/cuda/device.h"

using namespace relay;

TEST_CASE("without a usable driver the GPU layer says why and does not crash", "[gpu][cuda]") {
  const std::string stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  const bool have_stub = std::filesystem::exists(stub);
  // The driver is loaded once per process: this test decides which library that is.
  ::setenv("RELAY_CUDA_DRIVER", have_stub ? stub.c_str() : "/nonexistent/libcuda.so.1", 1);
  std::string why;
  CHECK(cuda::load_driver(&why) == nullptr);
  INFO(why);
  if (have_stub) {
    // every function resolved; cuInit refused
    CHECK(why.find("cuInit failed") != std::string::npos);
    CHECK(why.find("stub") != std::string::npos);
  } else {
    CHECK(why.find("cannot load /nonexistent/libcuda.so.1") != std::string::npos);
  }
  std::string count_why;
  CHECK(cuda::Device::count(&count_why) == 0);
  CHECK(count_why == why);
  std::string open_why;
  CHECK(cuda::Device::open(0, &open_why) == nullptr);
  CHECK(open_why == why);
  // asking again gives the same answer (the failed load is remembered, not retried)
  std::string again;
  CHECK(cuda::load_driver(&again) == nullptr);
  CHECK(again == why);
}

#endif  // RELAY_HAVE_PIPELINE
