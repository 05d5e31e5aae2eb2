// Kernels of random.* (reference §3.8), bit-exact with TVM v0.14.0's
// python/tvm/topi/random/kernel.py: the Threefry generator is threefry.h; this file turns
// its 64-bit words into the operators' outputs the way TVM's compute does.
#include <cmath>
#include <cstring>
#include <numbers>

#include "interpreter/kernels/kernel_util.h"
#include "interpreter/kernels/threefry.h"

namespace relay::rt {
namespace {

using threefry::Key;

Key read_key(const KernelCall& call) {
  NDArray k = call.tensor(0);
  if (k.dtype() != DataType::uint_(64) || k.shape() != Shape{10})
    throw RuntimeError("`" + std::string(call.op.name) + "`: the key must be a Tensor[(10), uint64], found shape " +
                       shape_to_string(k.shape()) + " of " + dtype_name(k.dtype()));
  Key key;
  std::memcpy(key.data(), k.raw(), sizeof key);
  return key;
}

NDArray key_array(const Key& key) {
  NDArray out = NDArray::empty({10}, DataType::uint_(64));
  std::memcpy(out.raw(), key.data(), sizeof key);
  return out;
}

Shape out_shape(const KernelCall& call) {
  Shape shape = call.attrs.get_ints("out_shape");
  shape_size(shape);  // negative or overflowing dims throw here, before any allocation
  return shape;
}

// Random words for `n` values and the next key.
std::vector<uint64_t> draw(const Key& key, int64_t n, Key& next) {
  std::vector<uint64_t> bits(static_cast<size_t>(n));
  next = threefry::generate(key, bits);
  return bits;
}

// TVM's standard uniform in [0, 1): the top fraction bits of the word (its low 32 bits for
// float32) under the exponent of 1.0, reinterpreted, minus 1.
float standard_uniform32(uint64_t bits) {
  uint32_t m = (static_cast<uint32_t>(bits) >> 9) | (127u << 23);
  float f;
  std::memcpy(&f, &m, sizeof f);
  return f - 1.0f;
}
double standard_uniform64(uint64_t bits) {
  uint64_t m = (bits >> 12) | (uint64_t{1023} << 52);
  double f;
  std::memcpy(&f, &m, sizeof f);
  return f - 1.0;
}

Value threefry_generate(const KernelCall& call) {
  Key key = read_key(call);
  NDArray out = NDArray::empty(out_shape(call), DataType::uint_(64));
  Key next = threefry::generate(key, std::span<uint64_t>(out.data<uint64_t>(), static_cast<size_t>(out.size())));
  return make_tuple({key_array(next), out});
}

Value threefry_split(const KernelCall& call) {
  auto [left, right] = threefry::split(read_key(call));
  return make_tuple({key_array(left), key_array(right)});
}

// uniform(low, high) = standard * (high - low) + low, in out_dtype's arithmetic.
template <class T>
void fill_uniform(const std::vector<uint64_t>& bits, T low, T high, T* out) {
  const T range = high - low;
  for (size_t i = 0; i < bits.size(); ++i) {
    T u;
    if constexpr (sizeof(T) == 4) u = standard_uniform32(bits[i]);
    else u = standard_uniform64(bits[i]);
    out[i] = u * range + low;
  }
}

DataType float_out(const KernelCall& call) {
  auto dt = call.attrs.get_dtype("out_dtype");
  if (!dt || !(*dt == DataType::float_(32) || *dt == DataType::float_(64)))
    throw RuntimeError("`" + std::string(call.op.name) + "`: out_dtype must be float32 or float64");
  return *dt;
}

Value uniform(const KernelCall& call) {
  Key key = read_key(call), next;
  const DataType dt = float_out(call);
  NDArray out = NDArray::empty(out_shape(call), dt);
  auto bits = draw(key, out.size(), next);
  const double low = call.tensor(1).get_double(0), high = call.tensor(2).get_double(0);
  if (dt.bits == 32) fill_uniform<float>(bits, static_cast<float>(low), static_cast<float>(high), out.data<float>());
  else fill_uniform<double>(bits, low, high, out.data<double>());
  return make_tuple({key_array(next), out});
}

// Box-Muller over 2n uniform draws in [0, 1): the first n give the radius (from 1 - u, so
// never log(0)), the last n the angle; one value per pair.
template <class T>
void fill_normal(const std::vector<uint64_t>& bits, T mean, T scale, T* out, size_t n) {
  std::vector<T> u(bits.size());
  fill_uniform<T>(bits, T(0), T(1), u.data());
  const T two_pi = static_cast<T>(2.0 * std::numbers::pi);
  for (size_t i = 0; i < n; ++i) {
    T r = std::sqrt(T(-2) * std::log(T(1) - u[i]));
    T s = std::sin(two_pi * u[n + i]);
    out[i] = r * s * scale + mean;
  }
}

Value normal(const KernelCall& call) {
  Key key = read_key(call), next;
  const DataType dt = float_out(call);
  NDArray out = NDArray::empty(out_shape(call), dt);
  int64_t pairs;
  if (__builtin_mul_overflow(out.size(), int64_t{2}, &pairs))
    throw RuntimeError("`random.normal`: too many values requested");
  auto bits = draw(key, pairs, next);
  const double mean = call.tensor(1).get_double(0), scale = call.tensor(2).get_double(0);
  const size_t n = static_cast<size_t>(out.size());
  if (dt.bits == 32) fill_normal<float>(bits, static_cast<float>(mean), static_cast<float>(scale), out.data<float>(), n);
  else fill_normal<double>(bits, mean, scale, out.data<double>(), n);
  return make_tuple({key_array(next), out});
}

// For each row of probs (last axis) and each of num_samples uniform draws u: the first
// index k whose cumulative probability minus u is smallest among the positive ones (1
// standing in for the others), as TVM's argmin over where(cum - u > 0, cum - u, 1). All
// in float32, with probabilities clipped at 0 and divided by their (sequential) sum.
Value multinomial(const KernelCall& call) {
  Key key = read_key(call), next;
  NDArray probs = call.tensor(1);
  if (probs.ndim() == 0) throw RuntimeError("`random.multinomial`: probs must have at least one dimension");
  const int64_t samples = call.attrs.get_int("num_samples", 1);
  Shape shape(probs.shape().begin(), probs.shape().end() - 1);
  shape.push_back(samples);
  NDArray out = NDArray::empty(shape, DataType::int_(32));
  auto bits = draw(key, out.size(), next);
  const int64_t k = probs.shape().back();
  const int64_t rows = k == 0 ? 0 : probs.size() / k;
  std::vector<float> cum(static_cast<size_t>(k));
  for (int64_t r = 0; r < rows; ++r) {
    float total = 0;
    for (int64_t j = 0; j < k; ++j) total += std::max(static_cast<float>(probs.get_double(r * k + j)), 0.0f);
    float acc = 0;
    for (int64_t j = 0; j < k; ++j) {
      acc += std::max(static_cast<float>(probs.get_double(r * k + j)), 0.0f) / total;
      cum[static_cast<size_t>(j)] = acc;
    }
    for (int64_t s = 0; s < samples; ++s) {
      const float u = standard_uniform32(bits[static_cast<size_t>(r * samples + s)]);
      int32_t best = 0;
      float best_v = 0;
      for (int64_t j = 0; j < k; ++j) {
        float d = cum[static_cast<size_t>(j)] - u;
        float v = d > 0 ? d : 1.0f;
        if (j == 0 || v < best_v) best = static_cast<int32_t>(j), best_v = v;
      }
      out.data<int32_t>()[r * samples + s] = best;
    }
  }
  return make_tuple({key_array(next), out});
}

}  // namespace

void register_random_kernels(KernelTable& t) {
  register_kernel(t, "random.threefry_generate", threefry_generate);
  register_kernel(t, "random.threefry_split", threefry_split);
  register_kernel(t, "random.uniform", uniform);
  register_kernel(t, "random.normal", normal);
  register_kernel(t, "random.multinomial", multinomial);
}

}  // namespace relay::rt
