// qnn.softmax (reference §3.10): the integer-only softmax TVM 0.14's QnnSoftmaxCanonicalize
// (src/relay/qnn/op/softmax.cc, Algorithm 1 of arXiv 2207.01405) lowers it to, step by
// step in int32 with TVM's semantics: adds, subtracts, multiplies and left shifts wrap,
// right shifts are arithmetic, division truncates towards zero (TIR's Div). With
// x0 = int32(round_half_away(float32(1 / input_scale))) and m = 30, bits = 8, along `axis`:
//   q    = int32(x) - input_zp;       d  = q - max(q)
//   xp   = d + (d >> 1) - (d >> 4)    (d * log2(e), approximately)
//   k    = clip(xp / -x0, 0, 20);     r  = xp - k * -x0
//   e    = ((r >> 1) + x0) << (max(k) - k)
//   out  = ((2^30 / sum(e)) * e) >> (m - (bits - 1))
// then requantize(out, scale 1/128, zp 0 -> output_scale, output_zp, int8, UPWARD).
// docs/interpreter.md states the same formula.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "interpreter/kernels/qnn_internal.h"

namespace relay::rt {
namespace {

int32_t add32(int32_t a, int32_t b) { return wrap32(static_cast<int64_t>(a) + b); }
int32_t sub32(int32_t a, int32_t b) { return wrap32(static_cast<int64_t>(a) - b); }
int32_t mul32(int32_t a, int32_t b) { return wrap32(static_cast<int64_t>(a) * b); }
// C's truncating division; INT32_MIN / -1 wraps as the int32 result would.
int32_t div32(int32_t a, int32_t b) { return wrap32(static_cast<int64_t>(a) / b); }
// Left shift of the bit pattern (a shifted-out sign does not trap, as in TVM's generated code).
int32_t shl32(int32_t a, int32_t s) { return static_cast<int32_t>(static_cast<uint32_t>(a) << s); }

// round(1 / input_scale) as TVM computes it at canonicalisation: float32 division, float
// round (halves away from zero), then a cast to int32. TVM requires input_scale <= 1; a
// non-positive scale would make x0 0 or negative (a division by zero or a meaningless
// clip), which TVM does not guard either, so it is an error here.
int32_t inverse_scale(const KernelCall& call) {
  const auto scale = static_cast<float>(scalar_arg(call, 1, "scale"));
  require(call, scale > 0.0f && scale <= 1.0f,
          "the input scale must be in (0, 1] (TVM's canonicalisation requires <= 1), found " + std::to_string(scale));
  const float x0 = std::round(1.0f / scale);
  require(call, x0 <= static_cast<float>(std::numeric_limits<int32_t>::max()),
          "1 / input scale does not fit int32");
  return static_cast<int32_t>(x0);
}

Value softmax(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  require(call, x.dtype() == DataType::int_(8), "expects int8 data, found `" + dtype_name(x.dtype()) + "`");
  const int32_t x0 = inverse_scale(call);
  const auto in_zp = static_cast<int32_t>(scalar_arg(call, 2, "zero_point"));
  const double out_scale = scalar_arg(call, 3, "output_scale");
  const auto out_zp = static_cast<int32_t>(scalar_arg(call, 4, "output_zero_point"));
  const int64_t axis = normalize_axis(call.attrs.get_int("axis", -1), x.shape().size(), op_name(call));
  const AxisView v = axis_view(x.shape(), static_cast<size_t>(axis));

  constexpr int32_t kM = 30, kBits = 8;
  const std::vector<int64_t> in = to_int64s(x);
  std::vector<int32_t> out(in.size());
  std::vector<int32_t> xp(static_cast<size_t>(v.n)), k(static_cast<size_t>(v.n)), e(static_cast<size_t>(v.n));
  for (int64_t o = 0; o < v.outer; ++o) {
    for (int64_t i = 0; i < v.inner; ++i) {
      const auto at = [&](int64_t j) { return static_cast<size_t>((o * v.n + j) * v.inner + i); };
      int32_t max_q = std::numeric_limits<int32_t>::min();
      for (int64_t j = 0; j < v.n; ++j) max_q = std::max(max_q, sub32(static_cast<int32_t>(in[at(j)]), in_zp));
      int32_t max_k = std::numeric_limits<int32_t>::min();
      for (int64_t j = 0; j < v.n; ++j) {
        const auto sj = static_cast<size_t>(j);
        const int32_t d = sub32(sub32(static_cast<int32_t>(in[at(j)]), in_zp), max_q);
        xp[sj] = sub32(add32(d, d >> 1), d >> 4);
        // Clip(x, 0, 20) is max(min(x, 20), 0).
        k[sj] = std::max(std::min(div32(xp[sj], -x0), 20), 0);
        max_k = std::max(max_k, k[sj]);
      }
      int32_t sum = 0;
      for (int64_t j = 0; j < v.n; ++j) {
        const auto sj = static_cast<size_t>(j);
        const int32_t r = sub32(xp[sj], mul32(k[sj], -x0));
        e[sj] = shl32(add32(r >> 1, x0), max_k - k[sj]);
        sum = add32(sum, e[sj]);
      }
      require(call, sum != 0, "the sum of the integer exponentials is 0 (wrapped int32), a division by zero");
      const int32_t recip = div32(int32_t{1} << kM, sum);
      for (int64_t j = 0; j < v.n; ++j) out[at(j)] = mul32(recip, e[static_cast<size_t>(j)]) >> (kM - (kBits - 1));
    }
  }
  // Requantize(out, shape, 1/2^(bits-1), 0, output_scale, output_zp, Int(bits), axis 0) with
  // the default rounding (UPWARD) and int64 compute.
  const NDArray wide = from_int64s(x.shape(), DataType::int_(32), std::vector<int64_t>(out.begin(), out.end()));
  const float unit = 1.0f / static_cast<float>(1 << (kBits - 1));
  return saturate_to(x.shape(), DataType::int_(8),
                     requantize_values(wide, QParam{{static_cast<double>(unit)}}, QParam{{0.0}}, out_scale, out_zp,
                                       Rounding::Upward));
}

}  // namespace

void register_qnn_softmax_kernels(KernelTable& t) { register_kernel(t, "qnn.softmax", softmax); }

}  // namespace relay::rt
