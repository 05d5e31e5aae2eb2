// Scans and arithmetic transforms: cumsum, cumprod, fixed_point_multiply_per_axis, stft,
// dft, einsum.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>

#include "interpreter/kernels/transform_internal.h"

namespace relay::rt {
namespace {

using namespace transform;

// cumsum/cumprod: the running sum/product along `axis` (the flattened data when None) in the
// result dtype; `exclusive` shifts by one, starting from the identity.
template <bool Prod> Value scan_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  DataType dtype = call.attrs.get_dtype("dtype").value_or(data.dtype());
  const bool exclusive = call.attrs.get_bool("exclusive", false);
  NDArray in = data;
  size_t axis = 0;
  if (call.attrs.is_none("axis")) in = data.reshaped({data.size()});
  else axis = static_cast<size_t>(axis_attr(call, "axis", data.ndim()));
  NDArray out = NDArray::empty(in.shape(), dtype);
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= in.dim(d);
  for (size_t d = axis + 1; d < in.ndim(); ++d) inner *= in.dim(d);
  const int64_t len = in.ndim() ? in.dim(axis) : 1;
  dispatch_dtype(in.dtype(), [&]<class S>(TypeTag<S>) {
    dispatch_dtype(dtype, [&]<class T>(TypeTag<T>) {
      // Floats accumulate in their own precision, as the generated loop does; integers wrap.
      using C = std::conditional_t<is_floating_v<T>, Compute<T>, Acc<T>>;
      const S* s = in.data<S>();
      T* d = out.data<T>();
      auto load = [](S v) -> C {
        if constexpr (std::is_same_v<C, bool>) return static_cast<Compute<S>>(v) != 0;
        else if constexpr (is_floating_v<S> && std::is_integral_v<C>) return static_cast<C>(cast_to<T>(static_cast<double>(static_cast<Compute<S>>(v))));
        else if constexpr (is_floating_v<S>) return static_cast<C>(static_cast<Compute<S>>(v));
        else return static_cast<C>(v);
      };
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          C acc = Prod ? C(1) : C(0);
          for (int64_t j = 0; j < len; ++j) {
            const int64_t at = (o * len + j) * inner + i;
            const C v = load(s[at]);
            if (exclusive) d[at] = static_cast<T>(acc);
            if constexpr (std::is_same_v<C, bool>) acc = Prod ? (acc && v) : (acc || v);
            else acc = static_cast<C>(Prod ? acc * v : acc + v);
            if (!exclusive) d[at] = static_cast<T>(acc);
          }
        }
    });
  });
  return out;
}

// fixed_point_multiply_per_axis(x, multiplier, lshift, rshift): per channel (the dims named
// by `axes`), round(x * 2^lshift * multiplier / 2^(31 + rshift)) with the rounding of TIR's
// q_multiply_shift (add half, shift right), computed in 64 bits.
Value fixed_point_multiply_per_axis_kernel(const KernelCall& call) {
  NDArray x = call.tensor(0), mult = call.tensor(1), lshift = call.tensor(2), rshift = call.tensor(3);
  require_integer(call, x, "data");
  const bool use_l = call.attrs.get_bool("is_lshift_required", false), use_r = call.attrs.get_bool("is_rshift_required", false);
  std::vector<size_t> axes;
  for (int64_t a : call.attrs.get_ints("axes")) axes.push_back(static_cast<size_t>(normalize_axis(a, x.ndim(), call.op.name)));
  Shape channel_shape;
  for (size_t a : axes) channel_shape.push_back(x.dim(a));
  for (const NDArray* t : {&mult, &lshift, &rshift})
    if (t->size() != shape_size(channel_shape))
      fail(call, "per-axis operand of shape " + str(t->shape()) + " does not match the channels " + str(channel_shape) + " of data " + str(x.shape()));
  const auto m = int_values(mult), ls = int_values(lshift), rs = int_values(rshift);
  const auto cstrides = contiguous_strides(channel_shape);
  NDArray out = NDArray::empty(x.shape(), x.dtype());
  std::vector<int64_t> idx(x.ndim(), 0);
  for (int64_t i = 0, n = x.size(); i < n; ++i) {
    int64_t c = 0;
    for (size_t k = 0; k < axes.size(); ++k) c += idx[axes[k]] * cstrides[k];
    const int64_t left = use_l ? ls[c] : 0, right = (use_r ? rs[c] : 0) + 31;
    if (left < 0 || left > 31 || right < 1 || right > 62)
      fail(call, "shift " + std::to_string(left) + "/" + std::to_string(right - 31) + " of channel " + std::to_string(c) + " is out of range");
    // Wrapping 64-bit arithmetic, as the generated code overflows silently.
    const uint64_t prod = (static_cast<uint64_t>(x.get_int(i)) << left) * static_cast<uint64_t>(m[c]);
    const int64_t rounded = static_cast<int64_t>(prod + (uint64_t{1} << (right - 1)));
    out.set_int(i, static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(rounded >> right)))));
    for (size_t k = idx.size(); k-- > 0;) {
      if (++idx[k] < x.dim(k)) break;
      idx[k] = 0;
    }
  }
  return out;
}

// stft as topi computes it: frame `col` starts at col * hop_length; row `r` sums
// window[w] * data[start + w] * e^(-2 pi i r w / win_length) over w < win_length; divided
// by sqrt(n_fft) when normalized. The result's last dim is (real, imaginary).
Value stft_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0), window = call.tensor(1);
  if (data.ndim() != 1 && data.ndim() != 2) fail(call, "data must be 1-D or 2-D, found shape " + str(data.shape()));
  const int64_t n_fft = call.attrs.get_int("n_fft", -1), hop = call.attrs.get_int("hop_length", -1);
  int64_t win = call.attrs.get_int("win_length", -1);
  if (win <= 0) win = n_fft;
  const bool normalized = call.attrs.get_bool("normalized", false), onesided = call.attrs.get_bool("onesided", true);
  const int64_t len = data.dim(data.ndim() - 1), batch = data.ndim() == 2 ? data.dim(0) : 1;
  if (n_fft <= 0 || hop <= 0 || len < n_fft) fail(call, "n_fft " + std::to_string(n_fft) + " and hop_length " + std::to_string(hop) + " do not fit a signal of " + std::to_string(len) + " samples");
  const int64_t rows = onesided ? n_fft / 2 + 1 : n_fft, cols = (len - n_fft) / hop + 1;
  if (window.size() < win) fail(call, "window of shape " + str(window.shape()) + " is shorter than win_length " + std::to_string(win));
  if ((cols - 1) * hop + win > len) fail(call, "win_length " + std::to_string(win) + " reads past the signal of " + std::to_string(len) + " samples");
  Shape s;
  if (data.ndim() == 2) s.push_back(batch);
  s.insert(s.end(), {rows, cols, 2});
  NDArray out = NDArray::empty(s, data.dtype());
  const double scale = normalized ? 1.0 / std::sqrt(static_cast<double>(n_fft)) : 1.0;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        double re = 0, im = 0;
        for (int64_t w = 0; w < win; ++w) {
          const double v = window.get_double(w) * data.get_double(b * len + c * hop + w);
          const double angle = 2 * std::numbers::pi * static_cast<double>(r * w) / static_cast<double>(win);
          re += v * std::cos(angle);
          im -= v * std::sin(angle);
        }
        const int64_t at = ((b * rows + r) * cols + c) * 2;
        out.set_double(at, re * scale);
        out.set_double(at + 1, im * scale);
      }
  return out;
}

// dft along the last axis; `inverse` flips the sign of the exponent and divides by n.
Value dft_kernel(const KernelCall& call) {
  NDArray re = call.tensor(0), im = call.tensor(1);
  if (re.shape() != im.shape()) fail(call, "re_data " + str(re.shape()) + " and im_data " + str(im.shape()) + " differ in shape");
  const bool inverse = call.attrs.get_bool("inverse", false);
  NDArray re_out = NDArray::empty(re.shape(), re.dtype()), im_out = NDArray::empty(im.shape(), im.dtype());
  const int64_t n = re.ndim() ? re.dim(re.ndim() - 1) : 1;
  const int64_t rows = n ? re.size() / n : 0;
  const double sign = inverse ? 1.0 : -1.0, factor = inverse && n ? 1.0 / static_cast<double>(n) : 1.0;
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t k = 0; k < n; ++k) {
      double sr = 0, si = 0;
      for (int64_t j = 0; j < n; ++j) {
        const double w = sign * 2 * std::numbers::pi * static_cast<double>((k * j) % n) / static_cast<double>(n);
        const double a = re.get_double(row * n + j), b = im.get_double(row * n + j);
        sr += a * std::cos(w) - b * std::sin(w);
        si += a * std::sin(w) + b * std::cos(w);
      }
      re_out.set_double(row * n + k, sr * factor);
      im_out.set_double(row * n + k, si * factor);
    }
  return make_tuple({re_out, im_out});
}

// einsum over labels: letters are labels 0..51, the "..." dims labels 52 and up (aligned
// from the right, broadcast together). Output labels are explicit, or "..." then the letters
// used once in alphabetical (ASCII) order; every other label is summed.
Value einsum_kernel(const KernelCall& call) {
  auto ops = call.tensors(0);
  std::string eq;
  for (char c : call.attrs.get_string("equation"))
    if (c != ' ') eq += c;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ops.size()) fail(call, "the equation has " + std::to_string(terms.size()) + " operands but the tuple has " + std::to_string(ops.size()));
  auto letter = [&](char c) -> int {
    if (std::islower(static_cast<unsigned char>(c))) return c - 'a' + 26;
    if (std::isupper(static_cast<unsigned char>(c))) return c - 'A';
    fail(call, "invalid character '" + std::string(1, c) + "' in the equation");
  };
  // Letters and the position of "..." in a term.
  auto split_term = [&](const std::string& t, std::vector<int>& labels, int64_t& ellipsis) {
    ellipsis = -1;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t.compare(i, 3, "...") == 0 && ellipsis < 0) {
        ellipsis = static_cast<int64_t>(labels.size());
        i += 2;
      } else {
        labels.push_back(letter(t[i]));
      }
    }
  };
  constexpr int kEll = 52;
  size_t ell_rank = 0;
  std::vector<std::vector<int>> op_labels(ops.size());
  std::vector<int> uses(kEll, 0);
  for (size_t k = 0; k < ops.size(); ++k) {
    std::vector<int> labels;
    int64_t e;
    split_term(terms[k], labels, e);
    const size_t rank = ops[k].ndim();
    if (e < 0 ? labels.size() != rank : labels.size() > rank)
      fail(call, "operand " + std::to_string(k) + " of shape " + str(ops[k].shape()) + " does not fit term \"" + terms[k] + "\"");
    for (int l : labels) ++uses[l];
    if (e >= 0) ell_rank = std::max(ell_rank, rank - labels.size());
  }
  std::vector<int64_t> extent(kEll + ell_rank, -1);
  for (size_t k = 0; k < ops.size(); ++k) {
    std::vector<int> labels;
    int64_t e;
    split_term(terms[k], labels, e);
    const size_t rank = ops[k].ndim(), extra = rank - labels.size();
    std::vector<int>& dims = op_labels[k];
    for (size_t j = 0; j < rank; ++j) {
      const size_t before = e < 0 ? labels.size() : static_cast<size_t>(e);
      int l = j < before ? labels[j] : j < before + extra ? kEll + static_cast<int>(ell_rank - extra + (j - before)) : labels[j - extra];
      dims.push_back(l);
      const int64_t d = ops[k].dim(j);
      if (extent[l] < 0 || extent[l] == 1) extent[l] = d;
      else if (d != 1 && d != extent[l])
        fail(call, "operand " + std::to_string(k) + " of shape " + str(ops[k].shape()) + " gives a label extent " + std::to_string(d) + " where another gives " + std::to_string(extent[l]));
    }
  }
  std::vector<int> out_labels;
  if (arrow != std::string::npos) {
    std::vector<int> labels;
    int64_t e;
    split_term(eq.substr(arrow + 2), labels, e);
    for (size_t j = 0; j <= labels.size(); ++j) {
      if (e == static_cast<int64_t>(j))
        for (size_t i = 0; i < ell_rank; ++i) out_labels.push_back(kEll + static_cast<int>(i));
      if (j < labels.size()) {
        if (extent[labels[j]] < 0) fail(call, "output label is not in any operand");
        out_labels.push_back(labels[j]);
      }
    }
  } else {
    for (size_t i = 0; i < ell_rank; ++i) out_labels.push_back(kEll + static_cast<int>(i));
    for (int l = 0; l < kEll; ++l)
      if (uses[l] == 1) out_labels.push_back(l);
  }
  for (size_t i = 0; i < ell_rank; ++i)
    if (extent[kEll + i] < 0) extent[kEll + i] = 1;
  std::vector<int> sum_labels;
  for (int l = 0; l < static_cast<int>(extent.size()); ++l)
    if (extent[l] >= 0 && std::find(out_labels.begin(), out_labels.end(), l) == out_labels.end()) sum_labels.push_back(l);
  // Every label as one loop dim (outputs first); per operand, its stride along each.
  std::vector<int> loop = out_labels;
  loop.insert(loop.end(), sum_labels.begin(), sum_labels.end());
  Shape out_shape, loop_shape;
  for (int l : out_labels) out_shape.push_back(extent[l]);
  for (int l : loop) loop_shape.push_back(extent[l]);
  std::vector<std::vector<int64_t>> strides(ops.size(), std::vector<int64_t>(loop.size(), 0));
  for (size_t k = 0; k < ops.size(); ++k) {
    const auto own = contiguous_strides(ops[k].shape());
    for (size_t j = 0; j < op_labels[k].size(); ++j) {
      if (ops[k].dim(j) == 1 && extent[op_labels[k][j]] != 1) continue;  // broadcast
      const size_t pos = static_cast<size_t>(std::find(loop.begin(), loop.end(), op_labels[k][j]) - loop.begin());
      strides[k][pos] += own[j];
    }
  }
  const DataType dtype = ops.empty() ? DataType::float_(32) : ops[0].dtype();
  for (const NDArray& t : ops)
    if (t.dtype() != dtype) fail(call, "operands have different dtypes");
  NDArray out = NDArray::empty(out_shape, dtype);
  const int64_t inner = shape_size(Shape(loop_shape.begin() + out_labels.size(), loop_shape.end()));
  dispatch_dtype(dtype, [&]<class T>(TypeTag<T>) {
    using C = std::conditional_t<is_floating_v<T>, double, Acc<T>>;
    std::vector<const T*> src;
    for (const NDArray& t : ops) src.push_back(t.data<T>());
    T* d = out.data<T>();
    const int64_t n_out = out.size();
    if (n_out == 0) return;
    std::vector<int64_t> idx(loop.size(), 0), off(ops.size(), 0);
    for (int64_t o = 0; o < n_out; ++o) {
      C acc{};
      for (int64_t s = 0; s < inner; ++s) {
        C term = C(1);
        for (size_t k = 0; k < ops.size(); ++k) {
          const C v = static_cast<C>(static_cast<Compute<T>>(src[k][off[k]]));
          if constexpr (std::is_same_v<C, bool>) term = term && v;
          else term = static_cast<C>(term * v);
        }
        if constexpr (std::is_same_v<C, bool>) acc = acc || term;
        else acc = static_cast<C>(acc + term);
        // Advance the full loop index (the output part advances as the sum part wraps).
        for (size_t j = loop.size(); j-- > 0;) {
          if (++idx[j] < loop_shape[j]) {
            for (size_t k = 0; k < ops.size(); ++k) off[k] += strides[k][j];
            break;
          }
          for (size_t k = 0; k < ops.size(); ++k) off[k] -= strides[k][j] * (loop_shape[j] - 1);
          idx[j] = 0;
        }
      }
      if (inner == 0) {  // an empty sum: advance the output index alone
        for (size_t j = out_labels.size(); j-- > 0;) {
          if (++idx[j] < loop_shape[j]) {
            for (size_t k = 0; k < ops.size(); ++k) off[k] += strides[k][j];
            break;
          }
          for (size_t k = 0; k < ops.size(); ++k) off[k] -= strides[k][j] * (loop_shape[j] - 1);
          idx[j] = 0;
        }
      }
      if constexpr (is_floating_v<T>) d[o] = static_cast<T>(static_cast<Compute<T>>(acc));
      else d[o] = static_cast<T>(acc);
    }
  });
  return out;
}

}  // namespace

void register_transform_signal_kernels(KernelTable& t) {
  register_kernel(t, "cumsum", scan_kernel<false>);
  register_kernel(t, "cumprod", scan_kernel<true>);
  register_kernel(t, "fixed_point_multiply_per_axis", fixed_point_multiply_per_axis_kernel);
  register_kernel(t, "stft", stft_kernel);
  register_kernel(t, "dft", dft_kernel);
  register_kernel(t, "einsum", einsum_kernel);
}

}  // namespace relay::rt
