// libFuzzer target over the dyn.* kernels' shape computations (issue 17 §3): the values
// that become shapes (newshape, shape, reps, begin/end/strides, pad_width, depth, k,
// scales, output_shape, size) come straight from the input bytes as int64 / double, with
// a small data tensor. Every outcome must be a result or a RuntimeError: never a crash, a
// sanitizer report (signed overflow included), or an allocation the checks should have
// refused.
//
// Input: byte 0 picks the operator, byte 1 the data rank (0-5), the next `rank` bytes its
// dims (0-4), one byte a flag (strided_slice's slice_mode), one byte the value count n
// (0-12), then n little-endian 8-byte values (read as int64, or as double for scales).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "interpreter/kernels/kernel.h"

using namespace relay;
using namespace relay::rt;

namespace {

struct Reader {
  const uint8_t* p;
  size_t n;
  uint8_t byte() { return n ? (--n, *p++) : 0; }
  int64_t word() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t{byte()} << (8 * i);
    int64_t s;
    std::memcpy(&s, &v, sizeof s);
    return s;
  }
};

NDArray ints(const std::vector<int64_t>& v, Shape shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(v.size())};
  NDArray a = NDArray::empty(shape, DataType::int_(64));
  for (size_t i = 0; i < v.size(); ++i) a.set_int(static_cast<int64_t>(i), v[i]);
  return a;
}
NDArray scalar_f(double v, DataType t = DataType::float_(32)) { return NDArray::scalar(v, t); }
NDArray scalar_i(int64_t v) { return NDArray::scalar_int(v, DataType::int_(64)); }
double as_double(int64_t v) {
  double d;
  std::memcpy(&d, &v, sizeof d);
  return d;
}

// Bytes of the output the kernel would legitimately allocate (0 when it must refuse:
// a negative dim), computed in long double so that nothing here overflows.
long double product(const Shape& s) {
  long double p = 1;
  for (int64_t d : s) p *= d < 0 ? 0 : static_cast<long double>(d);
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  static const char* const kOps[] = {"dyn.reshape", "dyn.broadcast_to", "dyn.zeros", "dyn.ones",
                                     "dyn.full", "dyn.expand_dims", "dyn.squeeze", "dyn.tile",
                                     "dyn.strided_slice", "dyn.one_hot", "dyn.topk", "dyn.nn.pad",
                                     "dyn.nn.upsampling", "dyn.nn.upsampling3d", "dyn.sparse_to_dense",
                                     "dyn.image.resize2d"};
  Reader r{bytes, size};
  const std::string_view name = kOps[r.byte() % 16];
  const size_t rank = r.byte() % 6;
  Shape dims;
  for (size_t i = 0; i < rank; ++i) dims.push_back(r.byte() % 5);
  const uint8_t flag = r.byte();
  const size_t count = r.byte() % 13;
  std::vector<int64_t> v;
  for (size_t i = 0; i < count; ++i) v.push_back(r.word());
  auto at = [&](size_t i) { return i < v.size() ? v[i] : 0; };

  const OpInfo* op = find_op(name);
  KernelFn fn = op ? find_kernel(*op) : nullptr;
  if (!fn) return 0;
  NDArray data = NDArray::zeros(dims, DataType::float_(32));
  std::vector<Value> args;
  long double out_bytes = 0;  // what a legitimate output would take
  std::vector<std::pair<std::string, AttrVal>> attrs;
  if (name == "dyn.reshape" || name == "dyn.broadcast_to" || name == "dyn.squeeze" || name == "dyn.tile") {
    args = {data, ints(v)};
    if (name == "dyn.broadcast_to") out_bytes = 4 * product(v);
    if (name == "dyn.tile") {
      Shape d = dims, reps = v;
      const size_t n = std::max(d.size(), reps.size());
      d.insert(d.begin(), n - d.size(), 1);
      reps.insert(reps.begin(), n - reps.size(), 1);
      out_bytes = 4 * product(d) * product(reps);
    }
  } else if (name == "dyn.zeros" || name == "dyn.ones") {
    args = {ints(v)};
    out_bytes = 4 * product(v);
  } else if (name == "dyn.full") {
    args = {scalar_f(1.5), ints(v)};
    out_bytes = 4 * product(v);
  } else if (name == "dyn.expand_dims") {
    args = {data, scalar_i(at(0))};
  } else if (name == "dyn.strided_slice") {
    const size_t k = v.size() / 3;
    args = {data, ints({v.begin(), v.begin() + k}), ints({v.begin() + k, v.begin() + 2 * k}),
            ints({v.begin() + 2 * k, v.begin() + 3 * k})};
    AttrVal mode;
    mode.kind = AttrVal::Kind::String;
    mode.text = flag & 1 ? "size" : "end";
    attrs.emplace_back("slice_mode", mode);
  } else if (name == "dyn.one_hot") {
    NDArray idx = NDArray::zeros(dims, DataType::int_(32));
    args = {idx, scalar_f(1), scalar_f(0), scalar_i(at(0))};
    out_bytes = 4 * product(dims) * product({at(0)});
  } else if (name == "dyn.topk") {
    args = {data, ints({at(0)})};
  } else if (name == "dyn.nn.pad") {
    std::vector<int64_t> w(2 * rank);
    Shape out = dims;
    for (size_t i = 0; i < 2 * rank; ++i) w[i] = at(i);
    for (size_t i = 0; i < rank; ++i)
      out[i] = static_cast<int64_t>(std::clamp<long double>(
          static_cast<long double>(dims[i]) + w[2 * i] + w[2 * i + 1], -1, 9e18L));
    args = {data, ints(w, {static_cast<int64_t>(rank), 2}), scalar_f(0)};
    out_bytes = 4 * product(out);
  } else if (name == "dyn.nn.upsampling" || name == "dyn.nn.upsampling3d") {
    const bool three = name == "dyn.nn.upsampling3d";
    Shape d = three ? Shape{1, 1, 2, 2, 2} : Shape{1, 1, 2, 2};
    data = NDArray::zeros(d, DataType::float_(32));
    args = {data};
    out_bytes = 4;
    for (size_t i = 0; i < (three ? 3u : 2u); ++i) {
      const double s = as_double(at(i));
      args.push_back(scalar_f(s, DataType::float_(64)));
      const long double n = std::isfinite(s) && s > 0 ? std::nearbyint(2.0L * static_cast<float>(s)) : 0;
      out_bytes *= n;
    }
  } else if (name == "dyn.sparse_to_dense") {
    const size_t k = v.empty() ? 0 : static_cast<size_t>(v[0] & 3);
    std::vector<int64_t> shape(v.begin() + std::min<size_t>(1, v.size()), v.begin() + std::min(v.size(), 1 + k));
    std::vector<int64_t> idx(v.begin() + std::min(v.size(), 1 + k), v.end());
    const int64_t m = shape.empty() ? 0 : static_cast<int64_t>(idx.size() / shape.size());
    idx.resize(static_cast<size_t>(m) * shape.size());
    args = {ints(idx, {m, static_cast<int64_t>(shape.size())}),
            NDArray::zeros({m}, DataType::float_(32)), scalar_f(0), ints(shape)};
    out_bytes = 4 * product(shape);
  } else if (name == "dyn.image.resize2d") {
    data = NDArray::zeros({1, 1, 2, 2}, DataType::float_(32));
    args = {data, ints({at(0), at(1)}), NDArray::zeros({4}, DataType::float_(32))};
    out_bytes = 4 * product({at(0), at(1)});
  }
  // A legitimate output over 4 MiB is not a bug, but would exhaust the fuzzer's memory or
  // time: a bilinear resize2d to 64 MiB took 32 s in the instrumented build, past the 10 s
  // hang limit (tests/fuzz/dyn_corpus/resize2d-large-output). Over the 16 GiB limit the
  // kernel must refuse the call, so that case still runs.
  if (out_bytes > (4 << 20) && out_bytes <= (17.0L * (1ULL << 30))) return 0;
  CallAttrs call_attrs = CallAttrs::from_values(op->attrs, attrs);
  KernelCall call{*op, std::span<const Value>(args.data(), args.size()), call_attrs};
  try {
    fn(call);
  } catch (const RuntimeError&) {
  }
  return 0;
}
