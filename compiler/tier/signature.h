// An argument signature: the dtypes and concrete shapes of a call's tensor arguments.
// Native code is specialised to one signature, so a function over `?` or symbolic
// dimensions compiles once per shape actually met.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "interpreter/value.h"

namespace relay::jit {

struct ArgType {
  DataType dtype;
  rt::Shape shape;
  bool operator==(const ArgType&) const = default;
};

struct Signature {
  std::vector<ArgType> args;
  size_t hash = 0;
  bool operator==(const Signature& o) const { return hash == o.hash && args == o.args; }
  std::string to_string() const;  // `(Tensor[(1, 784), float32], float32)`
};

// The signature of `args`, or nullopt when an argument is not a tensor (a tuple, a
// closure, an ADT value: such calls stay interpreted).
std::optional<Signature> signature_of(std::span<const rt::Value> args);

}  // namespace relay::jit
