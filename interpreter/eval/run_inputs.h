// Binding a run's inputs to the entry function's parameters: `--arg NAME=FILE.npy`
// (NAME with or without `%`) and `--random-inputs SEED`, checked against the declared
// parameter types. Problems become E0103 diagnostics at the parameter.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/runtime/ndarray.h"
#include "lang/base/diagnostic.h"
#include "lang/syntax/ast.h"
#include "lang/types/infer.h"

namespace relay::rt {

struct EntryInputs {
  std::vector<std::pair<std::string, std::string>> files;  // name (no `%`), path
  std::optional<uint64_t> random_seed;
};

// The argument tensors in parameter order; on failure reports to `diags` and returns
// nullopt.
std::optional<std::vector<NDArray>> bind_inputs(const FuncDef& entry, const InferredTypes* types,
                                                    const EntryInputs& inputs, DiagnosticBag& diags);

}  // namespace relay::rt
