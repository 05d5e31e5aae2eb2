// Data movement: nn.pad, nn.mirror_pad, nn.dilate, nn.fifo_buffer, nn.depth_to_space,
// nn.space_to_depth, nn.space_to_batch_nd, nn.batch_to_space_nd. These never compute on
// values, so they move elements as raw bits of the dtype's width.
#include <array>
#include <cstring>

#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

template <class F> void dispatch_bits(DataType t, F&& f) {
  switch (dtype_bytes(t)) {
    case 1: return f(TypeTag<uint8_t>{});
    case 2: return f(TypeTag<uint16_t>{});
    case 4: return f(TypeTag<uint32_t>{});
    case 8: return f(TypeTag<uint64_t>{});
  }
  throw RuntimeError("no kernel for dtype `" + dtype_name(t) + "`");
}

// out[o] = in[sum_d tables[d][o_d]], or `fill` where some tables[d][o_d] is -1: padding,
// cropping, mirroring and dilation are all per-dimension index maps.
NDArray gather_tables(const NDArray& in, const Shape& out_shape, const std::vector<std::vector<int64_t>>& tables,
                      const NDArray& fill) {
  NDArray out = NDArray::empty(out_shape, in.dtype());
  if (out.size() == 0) return out;
  dispatch_bits(in.dtype(), [&]<class T>(TypeTag<T>) {
    const T* src = in.data<T>();
    T* dst = out.data<T>();
    T fv{};
    if (fill.defined()) std::memcpy(&fv, fill.raw(), sizeof(T));
    const size_t rank = out_shape.size();
    if (rank == 0) {
      dst[0] = src[0];
      return;
    }
    const std::vector<int64_t>& last = tables[rank - 1];
    const int64_t n_last = out_shape[rank - 1];
    std::vector<int64_t> idx(rank, 0);
    for (int64_t row = 0, rows = out.size() / n_last; row < rows; ++row) {
      int64_t base = 0;
      bool valid = true;
      for (size_t d = 0; d + 1 < rank; ++d) {
        const int64_t t = tables[d][idx[d]];
        valid = valid && t >= 0;
        base += t;
      }
      T* o = dst + row * n_last;
      for (int64_t j = 0; j < n_last; ++j) o[j] = valid && last[j] >= 0 ? src[base + last[j]] : fv;
      for (size_t d = rank - 1; d-- > 0;) {
        if (++idx[d] < out_shape[d]) break;
        idx[d] = 0;
      }
    }
  });
  return out;
}

// The scalar `v` as a one-element tensor of `dtype` (integers exactly).
NDArray fill_value(const NDArray& v, DataType dtype) {
  if (v.size() == 0) return NDArray::zeros({}, dtype);
  if (dtype.is_float()) return NDArray::scalar(v.get_double(0), dtype);
  if (v.dtype().is_float()) return NDArray::scalar(v.get_double(0), dtype);
  return NDArray::scalar_int(v.get_int(0), dtype);
}

enum class PadMode { Constant, Edge, Reflect, Symmetric };

// The index table of one padded dimension (`-1` = fill), in elements times `stride`.
std::vector<int64_t> pad_table(const KernelCall& call, int64_t n, int64_t before, int64_t out_n, int64_t stride,
                               PadMode mode, size_t dim) {
  std::vector<int64_t> t(static_cast<size_t>(std::max<int64_t>(out_n, 0)));
  for (int64_t o = 0; o < out_n; ++o) {
    int64_t i = o - before;
    if (i < 0 || i >= n) {
      switch (mode) {
        case PadMode::Constant: t[o] = -1; continue;
        case PadMode::Edge: i = i < 0 ? 0 : n - 1; break;
        case PadMode::Reflect: i = i < 0 ? -i : 2 * (n - 1) - i; break;
        case PadMode::Symmetric: i = i < 0 ? -i - 1 : 2 * n - 1 - i; break;
      }
      require(call, i >= 0 && i < n,
              "padding dimension " + std::to_string(dim) + " (size " + std::to_string(n) +
                  ") reaches past the data it mirrors; pads must be smaller than the dimension");
    }
    t[o] = i * stride;
  }
  return t;
}

Value pad_impl(const KernelCall& call, const NDArray& x, PadMode mode, const NDArray& fill) {
  const auto widths = call.attrs.get_int_matrix("pad_width");
  require(call, widths.size() == x.ndim(),
          "pad_width has " + std::to_string(widths.size()) + " pairs for data of shape " + shape_to_string(x.shape()));
  const auto strides = contiguous_strides(x.shape());
  Shape out_shape;
  std::vector<std::vector<int64_t>> tables;
  for (size_t d = 0; d < x.ndim(); ++d) {
    require(call, widths[d].size() == 2, "each pad_width entry must be a [before, after] pair");
    int64_t out_n;  // widths may come from data (dyn.nn.pad): the sum is checked
    require(call, !__builtin_add_overflow(x.dim(d), widths[d][0], &out_n) &&
                      !__builtin_add_overflow(out_n, widths[d][1], &out_n),
            "padding dimension " + std::to_string(d) + " gives a size that does not fit in 64 bits");
    require(call, out_n >= 0, "padding leaves a negative size along dimension " + std::to_string(d));
    require(call, mode == PadMode::Constant || x.dim(d) > 0 || out_n == 0,
            "cannot pad an empty dimension " + std::to_string(d) + " by copying its elements");
    out_shape.push_back(out_n);
    tables.push_back(pad_table(call, x.dim(d), widths[d][0], out_n, strides[d], mode, d));
  }
  return gather_tables(x, out_shape, tables, fill);
}

Value pad(const KernelCall& call) {
  NDArray x = call.tensor(0);
  const std::string mode = call.attrs.get_string("pad_mode");
  PadMode m = PadMode::Constant;
  if (mode == "edge") m = PadMode::Edge;
  else if (mode == "reflect") m = PadMode::Reflect;
  else require(call, mode == "constant" || mode.empty(), "unknown pad_mode \"" + mode + "\" (constant, edge, reflect)");
  return pad_impl(call, x, m, fill_value(call.tensor(1), x.dtype()));
}

Value mirror_pad(const KernelCall& call) {
  NDArray x = call.tensor(0);
  const std::string mode = call.attrs.get_string("mode");
  require(call, mode == "SYMMETRIC" || mode == "REFLECT", "unknown mode \"" + mode + "\" (SYMMETRIC, REFLECT)");
  return pad_impl(call, x, mode == "SYMMETRIC" ? PadMode::Symmetric : PadMode::Reflect, NDArray());
}

// out[i] = x[i / s] where every i is a multiple of its stride s, else dilation_value.
Value dilate(const KernelCall& call) {
  NDArray x = call.tensor(0);
  const auto s = call.attrs.get_ints("strides");
  require(call, s.size() == x.ndim(),
          "strides has " + std::to_string(s.size()) + " values for data of shape " + shape_to_string(x.shape()));
  const auto strides = contiguous_strides(x.shape());
  Shape out_shape;
  std::vector<std::vector<int64_t>> tables;
  for (size_t d = 0; d < x.ndim(); ++d) {
    require(call, s[d] > 0, "strides must be positive");
    const int64_t out_n = x.dim(d) == 0 ? 0 : (x.dim(d) - 1) * s[d] + 1;
    out_shape.push_back(out_n);
    std::vector<int64_t> t(static_cast<size_t>(out_n));
    for (int64_t o = 0; o < out_n; ++o) t[o] = o % s[d] == 0 ? (o / s[d]) * strides[d] : -1;
    tables.push_back(std::move(t));
  }
  return gather_tables(x, out_shape, tables, NDArray::scalar(call.attrs.get_double("dilation_value"), x.dtype()));
}

// The buffer shifted along `axis` by data's length there, with data appended.
Value fifo_buffer(const KernelCall& call) {
  NDArray data = call.tensor(0), buffer = call.tensor(1);
  const size_t axis = static_cast<size_t>(normalize_axis(call.attrs.get_int("axis"), buffer.ndim(), call.op.name));
  bool ok = data.ndim() == buffer.ndim() && data.dtype() == buffer.dtype() && data.dim(axis) <= buffer.dim(axis);
  for (size_t d = 0; ok && d < data.ndim(); ++d) ok = d == axis || data.dim(d) == buffer.dim(d);
  require(call, ok,
          "data shape " + shape_to_string(data.shape()) + " does not fit buffer shape " + shape_to_string(buffer.shape()) +
              " along axis " + std::to_string(axis));
  const AxisView vb = axis_view(buffer.shape(), axis);
  const int64_t m = data.dim(axis), keep = vb.n - m;
  const size_t row = dtype_bytes(buffer.dtype()) * static_cast<size_t>(vb.inner);
  NDArray out = NDArray::empty(buffer.shape(), buffer.dtype());
  auto* dst = static_cast<unsigned char*>(out.raw());
  const auto* b = static_cast<const unsigned char*>(buffer.raw());
  const auto* x = static_cast<const unsigned char*>(data.raw());
  for (int64_t o = 0; o < vb.outer; ++o) {
    if (keep > 0) std::memcpy(dst + o * vb.n * row, b + (o * vb.n + m) * row, keep * row);
    if (m > 0) std::memcpy(dst + (o * vb.n + keep) * row, x + o * m * row, m * row);
  }
  return out;
}

// Positions of N, C, H, W in a 4-letter layout (only NCHW and NHWC, as TOPI).
std::array<size_t, 4> nchw_positions(const KernelCall& call) {
  const std::string layout = call.attrs.get_string("layout");
  require(call, layout == "NCHW" || layout == "NHWC", "unsupported layout \"" + layout + "\" (NCHW or NHWC)");
  return layout == "NCHW" ? std::array<size_t, 4>{0, 1, 2, 3} : std::array<size_t, 4>{0, 3, 1, 2};
}

// Copies out[n, c, y, x] = in[src(n, c, y, x)] in canonical NCHW coordinates.
template <class Src>
NDArray remap_nchw(const NDArray& in, const std::array<size_t, 4>& pos, const std::array<int64_t, 4>& out_dims, Src src) {
  Shape out_shape(4);
  for (int i = 0; i < 4; ++i) out_shape[pos[i]] = out_dims[i];
  NDArray out = NDArray::empty(out_shape, in.dtype());
  const auto is = contiguous_strides(in.shape()), os = contiguous_strides(out_shape);
  dispatch_bits(in.dtype(), [&]<class T>(TypeTag<T>) {
    const T* p = in.data<T>();
    T* o = out.data<T>();
    for (int64_t n = 0; n < out_dims[0]; ++n)
      for (int64_t c = 0; c < out_dims[1]; ++c)
        for (int64_t y = 0; y < out_dims[2]; ++y)
          for (int64_t x = 0; x < out_dims[3]; ++x) {
            const std::array<int64_t, 4> s = src(n, c, y, x);
            o[n * os[pos[0]] + c * os[pos[1]] + y * os[pos[2]] + x * os[pos[3]]] =
                p[s[0] * is[pos[0]] + s[1] * is[pos[1]] + s[2] * is[pos[2]] + s[3] * is[pos[3]]];
          }
  });
  return out;
}

std::array<int64_t, 4> canonical_dims(const NDArray& x, const std::array<size_t, 4>& pos) {
  return {x.dim(pos[0]), x.dim(pos[1]), x.dim(pos[2]), x.dim(pos[3])};
}

// DCR: the block offset is the outer part of the input channel; CRD: the inner part.
Value depth_to_space(const KernelCall& call) {
  NDArray x = call.tensor(0);
  require(call, x.ndim() == 4, "data must be 4-D, found shape " + shape_to_string(x.shape()));
  const auto pos = nchw_positions(call);
  const int64_t b = call.attrs.get_int("block_size", 1);
  const auto d = canonical_dims(x, pos);
  require(call, b > 0 && d[1] % (b * b) == 0,
          "the " + std::to_string(d[1]) + " channels are not a multiple of block_size^2 = " + std::to_string(b * b));
  const int64_t oc = d[1] / (b * b);
  const bool dcr = call.attrs.get_string("mode") != "CRD";
  return remap_nchw(x, pos, {d[0], oc, d[2] * b, d[3] * b}, [&](int64_t n, int64_t c, int64_t y, int64_t xx) {
    const int64_t off = (y % b) * b + xx % b;
    return std::array<int64_t, 4>{n, dcr ? off * oc + c : c * b * b + off, y / b, xx / b};
  });
}

// The block offset becomes the outer part of the output channel (TOPI has no mode here).
Value space_to_depth(const KernelCall& call) {
  NDArray x = call.tensor(0);
  require(call, x.ndim() == 4, "data must be 4-D, found shape " + shape_to_string(x.shape()));
  const auto pos = nchw_positions(call);
  const int64_t b = call.attrs.get_int("block_size", 1);
  const auto d = canonical_dims(x, pos);
  require(call, b > 0 && d[2] % b == 0 && d[3] % b == 0,
          "height and width of data shape " + shape_to_string(x.shape()) + " must be multiples of block_size " +
              std::to_string(b));
  const int64_t ic = d[1];
  return remap_nchw(x, pos, {d[0], ic * b * b, d[2] / b, d[3] / b}, [&](int64_t n, int64_t c, int64_t y, int64_t xx) {
    const int64_t off = c / ic;
    return std::array<int64_t, 4>{n, c % ic, y * b + off / b, xx * b + off % b};
  });
}

// out element -> input flat offset or -1 (fill), over every output multi-index.
template <class Src>
NDArray remap_generic(const NDArray& in, const Shape& out_shape, const NDArray& fill, Src src) {
  NDArray out = NDArray::empty(out_shape, in.dtype());
  dispatch_bits(in.dtype(), [&]<class T>(TypeTag<T>) {
    const T* p = in.data<T>();
    T* o = out.data<T>();
    T fv{};
    if (fill.defined()) std::memcpy(&fv, fill.raw(), sizeof(T));
    std::vector<int64_t> idx(out_shape.size(), 0);
    for (int64_t i = 0; i < out.size(); ++i) {
      const int64_t at = src(idx);
      o[i] = at >= 0 ? p[at] : fv;
      for (size_t d = out_shape.size(); d-- > 0;) {
        if (++idx[d] < out_shape[d]) break;
        idx[d] = 0;
      }
    }
  });
  return out;
}

struct BlockNd {
  std::vector<int64_t> block;
  std::vector<std::vector<int64_t>> pairs;
  int64_t block_elements = 1;
};

BlockNd read_block(const KernelCall& call, const NDArray& x, const char* pairs_attr) {
  BlockNd b{call.attrs.get_ints("block_shape"), call.attrs.get_int_matrix(pairs_attr)};
  require(call, b.pairs.size() == b.block.size() && x.ndim() >= b.block.size() + 1,
          std::string("block_shape and ") + pairs_attr + " do not fit data of shape " + shape_to_string(x.shape()));
  for (size_t i = 0; i < b.block.size(); ++i) {
    require(call, b.block[i] > 0 && b.pairs[i].size() == 2, "block_shape must be positive, with a pair per block dim");
    b.block_elements *= b.block[i];
  }
  return b;
}

// TF semantics: pad the spatial dims, split each into (size / block, block), move the
// block offsets in front of the batch. Output batch = block offset (row-major) * B + n.
Value space_to_batch_nd(const KernelCall& call) {
  NDArray x = call.tensor(0);
  const BlockNd b = read_block(call, x, "paddings");
  const size_t m = b.block.size();
  Shape out_shape = x.shape();
  out_shape[0] = x.dim(0) * b.block_elements;
  for (size_t i = 0; i < m; ++i) {
    const int64_t padded = x.dim(i + 1) + b.pairs[i][0] + b.pairs[i][1];
    require(call, padded >= 0 && padded % b.block[i] == 0,
            "padded dimension " + std::to_string(i + 1) + " (" + std::to_string(padded) + ") of data shape " +
                shape_to_string(x.shape()) + " is not a multiple of block " + std::to_string(b.block[i]));
    out_shape[i + 1] = padded / b.block[i];
  }
  const auto is = contiguous_strides(x.shape());
  const int64_t B = x.dim(0);
  return remap_generic(x, out_shape, NDArray::scalar(call.attrs.get_double("pad_value"), x.dtype()),
                       [&](const std::vector<int64_t>& o) -> int64_t {
                         int64_t j = B ? o[0] / B : 0;
                         int64_t at = (B ? o[0] % B : 0) * is[0];
                         for (size_t i = m; i-- > 0;) {
                           const int64_t off = j % b.block[i];
                           j /= b.block[i];
                           const int64_t p = o[i + 1] * b.block[i] + off - b.pairs[i][0];
                           if (p < 0 || p >= x.dim(i + 1)) return -1;
                           at += p * is[i + 1];
                         }
                         for (size_t d = m + 1; d < o.size(); ++d) at += o[d] * is[d];
                         return at;
                       });
}

Value batch_to_space_nd(const KernelCall& call) {
  NDArray x = call.tensor(0);
  const BlockNd b = read_block(call, x, "crops");
  const size_t m = b.block.size();
  require(call, x.dim(0) % b.block_elements == 0,
          "the batch " + std::to_string(x.dim(0)) + " is not a multiple of the block size " +
              std::to_string(b.block_elements));
  const int64_t B = x.dim(0) / b.block_elements;
  Shape out_shape = x.shape();
  out_shape[0] = B;
  for (size_t i = 0; i < m; ++i) {
    out_shape[i + 1] = x.dim(i + 1) * b.block[i] - b.pairs[i][0] - b.pairs[i][1];
    require(call, out_shape[i + 1] >= 0, "crops exceed dimension " + std::to_string(i + 1));
  }
  const auto is = contiguous_strides(x.shape());
  return remap_generic(x, out_shape, NDArray(), [&](const std::vector<int64_t>& o) -> int64_t {
    int64_t j = 0, at = 0;
    for (size_t i = 0; i < m; ++i) {
      const int64_t p = o[i + 1] + b.pairs[i][0];
      j = j * b.block[i] + p % b.block[i];
      at += (p / b.block[i]) * is[i + 1];
    }
    at += (j * B + o[0]) * is[0];
    for (size_t d = m + 1; d < o.size(); ++d) at += o[d] * is[d];
    return at;
  });
}

}  // namespace

void register_nn_layout_kernels(KernelTable& table) {
  register_kernel(table, "nn.pad", pad);
  register_kernel(table, "nn.mirror_pad", mirror_pad);
  register_kernel(table, "nn.dilate", dilate);
  register_kernel(table, "nn.fifo_buffer", fifo_buffer);
  register_kernel(table, "nn.depth_to_space", depth_to_space);
  register_kernel(table, "nn.space_to_depth", space_to_depth);
  register_kernel(table, "nn.space_to_batch_nd", space_to_batch_nd);
  register_kernel(table, "nn.batch_to_space_nd", batch_to_space_nd);
}

}  // namespace relay::rt
