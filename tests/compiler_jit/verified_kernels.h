// The kernels a GPU test assembles into one module, from lowerings that must all have
// succeeded: each kernel must pass the loop IR's verifier, and a product split along k
// brings its finish right after it (the order emit_ptx numbers them in).
#pragma once

#include <catch2/catch.hpp>

#include <span>
#include <vector>

#include "compiler/loops/ir.h"
#include "compiler/loops/print.h"
#include "compiler/loops/verify.h"

namespace relay::test {

inline std::vector<const loops::Kernel*> verified_kernels(std::span<const loops::LoweredKernel> lowered) {
  std::vector<const loops::Kernel*> kernels;
  for (const loops::LoweredKernel& l : lowered) {
    REQUIRE(l.ok());
    INFO(loops::print_kernel(l.kernel));
    CHECK(loops::verify(l.kernel).empty());
    kernels.push_back(&l.kernel);
    if (l.finish) {
      CHECK(loops::verify(*l.finish).empty());
      kernels.push_back(&*l.finish);
    }
  }
  return kernels;
}

}  // namespace relay::test
