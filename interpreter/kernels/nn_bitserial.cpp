// Bit-serial operators: nn.bitpack and nn.bitserial_dense (TOPI's generic computes).
#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

// Bit plane b of every element, packed `width` elements to a word along pack_axis with
// the first element in the most significant bit; the planes form a new axis of size
// `bits` at bit_axis. Axes are taken as written (the type relation does not normalise
// negative ones, and TOPI's compute would disagree with it), so they must be >= 0.
Value bitpack(const KernelCall& call) {
  NDArray x = call.tensor(0);
  const std::optional<DataType> pack_type = call.attrs.get_dtype("pack_type");
  require(call, pack_type && (pack_type->is_int() || pack_type->is_uint()), "pack_type must be an integer dtype");
  const int64_t width = pack_type->bits, bits = call.attrs.get_int("bits", 1);
  const int64_t pack_axis = call.attrs.get_int("pack_axis", 1), bit_axis = call.attrs.get_int("bit_axis", -1);
  const int64_t rank = static_cast<int64_t>(x.ndim());
  require(call, pack_axis >= 0 && pack_axis < rank && bit_axis >= 0 && bit_axis <= rank,
          "pack_axis " + std::to_string(pack_axis) + " and bit_axis " + std::to_string(bit_axis) +
              " must be non-negative axes of data shape " + shape_to_string(x.shape()));
  require(call, bits >= 1 && bits <= 8, "bits must be between 1 and 8, found " + std::to_string(bits));
  require(call, x.dim(static_cast<size_t>(pack_axis)) % width == 0,
          "dimension " + std::to_string(pack_axis) + " of data shape " + shape_to_string(x.shape()) +
              " is not a multiple of the " + std::to_string(width) + " bits of pack_type");
  Shape out_shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (i == bit_axis) out_shape.push_back(bits);
    const int64_t d = x.dim(static_cast<size_t>(i));
    out_shape.push_back(i == pack_axis ? d / width : d);
  }
  if (bit_axis == rank) out_shape.push_back(bits);
  const auto os = contiguous_strides(out_shape);
  // stride of input axis i in the output, and of the bit plane
  std::vector<int64_t> in_to_out(static_cast<size_t>(rank));
  for (int64_t i = 0; i < rank; ++i) in_to_out[i] = os[static_cast<size_t>(i >= bit_axis ? i + 1 : i)];
  const int64_t plane_stride = os[static_cast<size_t>(bit_axis)];
  const std::vector<int64_t> in = to_int64s(x);
  std::vector<uint64_t> words(static_cast<size_t>(shape_size(out_shape)), 0);
  std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
  for (size_t e = 0; e < in.size(); ++e) {
    int64_t at = 0;
    for (int64_t i = 0; i < rank; ++i) at += (i == pack_axis ? idx[i] / width : idx[i]) * in_to_out[i];
    const int64_t shift = width - 1 - idx[static_cast<size_t>(pack_axis)] % width;
    for (int64_t b = 0; b < bits; ++b)
      if ((in[e] >> b) & 1) words[static_cast<size_t>(at + b * plane_stride)] |= uint64_t{1} << shift;
    for (int64_t d = rank; d-- > 0;) {
      if (++idx[d] < x.dim(static_cast<size_t>(d))) break;
      idx[d] = 0;
    }
  }
  return from_int64s(out_shape, *pack_type, std::vector<int64_t>(words.begin(), words.end()));
}

// Weight values from a weight TOPI's bitserial_dense takes already packed: (X, WB, K/width)
// words of the weight's own integer dtype, bit plane b of element k at bit width-1 - k%width
// of word k/width (nn.bitpack with pack_axis=1, bit_axis=1). WB, not weight_bits, is the
// number of planes, as in TOPI.
std::vector<int64_t> unpack_weight(const KernelCall& call, const NDArray& weight, int64_t K) {
  require(call, weight.dtype().is_int() || weight.dtype().is_uint(), "a packed (3-D) weight must hold integer words");
  const int64_t width = weight.dtype().bits, X = weight.dim(0), WB = weight.dim(1), KW = weight.dim(2);
  require(call, KW * width == K,
          "the packed weight " + shape_to_string(weight.shape()) + " holds " + std::to_string(KW * width) +
              " columns of " + std::to_string(width) + "-bit words, but data has " + std::to_string(K));
  const std::vector<int64_t> words = to_int64s(weight);
  std::vector<int64_t> w(static_cast<size_t>(X * K), 0);
  for (int64_t x = 0; x < X; ++x)
    for (int64_t b = 0; b < WB; ++b)
      for (int64_t k = 0; k < K; ++k) {
        const auto word = static_cast<uint64_t>(words[static_cast<size_t>((x * WB + b) * KW + k / width)]);
        w[static_cast<size_t>(x * K + k)] |= static_cast<int64_t>((word >> (width - 1 - k % width)) & 1) << b;
      }
  return w;
}

// data (Y, K) and weight (X, K), their values cut to data_bits / weight_bits low bits (or a
// weight packed as above). Summing the bit-plane popcounts shifted by their plane numbers
// gives
//   bipolar:  sum_k d * w
//   unipolar: sum_k d * (2 * w - (2^weight_bits - 1))   (weight bits as +1 / -1)
// accumulated in out_dtype (wrapping). TOPI's bitpack also asserts K % (pack_dtype bits)
// == 0; padding K with zero columns does not change these sums, so any K is accepted.
Value bitserial_dense(const KernelCall& call) {
  NDArray data = call.tensor(0), weight = call.tensor(1);
  const bool packed = weight.ndim() == 3;
  require(call, data.ndim() == 2 && (packed || (weight.ndim() == 2 && data.dim(1) == weight.dim(1))),
          "needs data (Y, K) and a weight (X, K) or packed (X, bits, K/word bits), found " +
              shape_to_string(data.shape()) + " and " + shape_to_string(weight.shape()));
  const int64_t db = call.attrs.get_int("data_bits", 1);
  const int64_t wb = packed ? weight.dim(1) : call.attrs.get_int("weight_bits", 1);
  require(call, db >= 1 && db <= 8 && wb >= 1 && wb <= 8, "data_bits and weight_bits must be between 1 and 8");
  const int64_t units = call.attrs.get_int("units", weight.dim(0));
  require(call, units == weight.dim(0), "`units` is " + std::to_string(units) + " but the weight has shape " +
                                            shape_to_string(weight.shape()));
  const bool unipolar = call.attrs.get_bool("unipolar", true);
  const int64_t Y = data.dim(0), X = weight.dim(0), K = data.dim(1);
  std::vector<int64_t> d = to_int64s(data), w = packed ? unpack_weight(call, weight, K) : to_int64s(weight);
  for (int64_t& v : d) v &= (int64_t{1} << db) - 1;
  for (int64_t& v : w) v = unipolar ? 2 * (v & ((int64_t{1} << wb) - 1)) - ((int64_t{1} << wb) - 1) : v & ((int64_t{1} << wb) - 1);
  std::vector<int64_t> out(static_cast<size_t>(Y * X));
  for (int64_t y = 0; y < Y; ++y)
    for (int64_t x = 0; x < X; ++x) {
      int64_t s = 0;
      for (int64_t k = 0; k < K; ++k) s += d[static_cast<size_t>(y * K + k)] * w[static_cast<size_t>(x * K + k)];
      out[static_cast<size_t>(y * X + x)] = s;
    }
  return from_int64s({Y, X}, attr_out_dtype(call, data.dtype()), out);
}

}  // namespace

void register_nn_bitserial_kernels(KernelTable& table) {
  register_kernel(table, "nn.bitpack", bitpack);
  register_kernel(table, "nn.bitserial_dense", bitserial_dense);
}

}  // namespace relay::rt
