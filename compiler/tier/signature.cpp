#include "compiler/tier/signature.h"

#include "interpreter/runtime/ndarray.h"

namespace relay::jit {

std::optional<Signature> signature_of(std::span<const rt::Value> args) {
  Signature s;
  s.args.reserve(args.size());
  size_t h = args.size();
  auto mix = [&h](uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  for (const rt::Value& v : args) {
    if (!v.is_tensor()) return std::nullopt;
    const rt::NDArray& a = v.tensor();
    s.args.push_back({a.dtype(), a.shape()});
    // The dtype's fields, not its name: this runs at every call of a global.
    const DataType t = a.dtype();
    mix(static_cast<uint64_t>(t.code) | static_cast<uint64_t>(t.bits) << 8 | static_cast<uint64_t>(t.lanes) << 16);
    for (int64_t d : a.shape()) mix(static_cast<uint64_t>(d));
    mix(a.shape().size());
  }
  s.hash = h;
  return s;
}

std::string Signature::to_string() const {
  std::string out = "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) out += ", ";
    const ArgType& a = args[i];
    if (a.shape.empty()) {
      out += dtype_name(a.dtype);
      continue;
    }
    out += "Tensor[(";
    for (size_t d = 0; d < a.shape.size(); ++d) out += (d ? ", " : "") + std::to_string(a.shape[d]);
    out += "), " + dtype_name(a.dtype) + "]";
  }
  return out + ")";
}

}  // namespace relay::jit
