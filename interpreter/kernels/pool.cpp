// nn.{max,avg}_pool{1,2,3}d, nn.global_{max,avg}_pool2d and nn.{max,avg}_pool2d_grad
// (reference §3.0.7, §3.7), following TOPI's pool_impl_nd and pool_grad: padding reads as
// the dtype's lowest value for max and is skipped (or counted, count_include_pad) for avg;
// ceil_mode adds stride-1 of extra tail padding that avg never counts.
#include <algorithm>
#include <limits>

#include "interpreter/kernels/conv_pool_internal.h"

namespace relay::rt {
namespace convpool {

std::vector<size_t> spatial_axes(const KernelCall& call, size_t data_rank, const std::string& letters,
                                 std::string_view attr) {
  std::string text = call.attrs.get_string(attr);
  Layout l = parse_layout(call, text, attr);
  if (l.size() != data_rank)
    fail(call, "data has rank " + std::to_string(data_rank) + ", but `" + std::string(attr) + "` \"" +
                   text + "\" has " + std::to_string(l.size()) + " axes");
  std::vector<size_t> axes;
  for (char a : letters) {
    int p = l.index_of(a);
    if (p < 0 || l.sub_index_of(static_cast<char>(a - 'A' + 'a')) >= 0)
      fail(call, "`" + std::string(attr) + "` \"" + text + "\" must contain the axes " + letters +
                     ", none of them split");
    axes.push_back(static_cast<size_t>(p));
  }
  return axes;
}

PoolView pool_view(const KernelCall& call, const Shape& in_shape, const std::string& letters,
                   const std::vector<int64_t>& out_spatial, std::string_view attr) {
  const size_t rank = letters.size();
  std::vector<size_t> axes = spatial_axes(call, in_shape.size(), letters, attr);
  PoolView v;
  v.in_shape = in_shape;
  v.out_shape = in_shape;
  for (size_t i = 0; i < rank; ++i) v.out_shape[axes[i]] = out_spatial[i];
  auto is = contiguous_strides(v.in_shape), os = contiguous_strides(v.out_shape);
  for (size_t d = 0; d < in_shape.size(); ++d) {
    auto it = std::find(axes.begin(), axes.end(), d);
    if (it == axes.end()) {
      v.outer.push_back(in_shape[d]);
      v.outer_in.push_back(is[d]);
      v.outer_out.push_back(os[d]);
      continue;
    }
    size_t a = 3 - rank + static_cast<size_t>(it - axes.begin());
    v.in[a] = in_shape[d];
    v.out[a] = out_spatial[static_cast<size_t>(it - axes.begin())];
    v.in_str[a] = is[d];
    v.out_str[a] = os[d];
  }
  return v;
}

}  // namespace convpool

namespace {

using namespace convpool;

template <class T> Compute<T> lowest() {
  if constexpr (std::is_same_v<T, bool>) return false;
  else if constexpr (std::is_same_v<T, float16>) return -65504.0f;
  else if constexpr (std::is_same_v<T, bfloat16>) return -std::numeric_limits<float>::max();
  else return std::numeric_limits<T>::lowest();
}

// avg's integer sum wraps in the data dtype, then divides (truncating) by the count.
template <class T> T average(double fsum, int64_t isum, int64_t count) {
  if constexpr (std::is_same_v<T, bool>) return isum != 0;
  else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<int64_t>(static_cast<T>(isum)) / count);
  else return static_cast<T>(static_cast<Compute<T>>(fsum / static_cast<double>(count)));
}

// avg's divisor. count_include_pad divides by the padded window as TOPI does, unclamped: a
// ceil_mode window that starts past the padding counts 0 taps (or, truncating, fewer) and
// its float average is 0/0 = NaN (or -0), as TVM computes it. Integers, whose division by
// zero TVM leaves undefined, and the unpadded count are clamped to 1 as TOPI clamps the latter.
template <class T> int64_t divisor(bool count_include_pad, int64_t count, int64_t padded_count) {
  if (!count_include_pad) return std::max<int64_t>(count, 1);
  if constexpr (std::is_integral_v<T>) return std::max<int64_t>(padded_count, 1);
  else return padded_count;
}

struct PoolAttrs {
  Geom g;
  int64_t pad_after[3] = {0, 0, 0};
  bool count_include_pad = false;
};

template <class T>
void pool_forward(const T* in, T* out, const PoolView& v, const PoolAttrs& pa, bool is_max) {
  const Geom& g = pa.g;
  for_each_outer(v, [&](int64_t ib, int64_t ob) {
    for (int64_t o0 = 0; o0 < v.out[0]; ++o0)
      for (int64_t o1 = 0; o1 < v.out[1]; ++o1)
        for (int64_t o2 = 0; o2 < v.out[2]; ++o2) {
          const int64_t o[3] = {o0, o1, o2};
          int64_t lo[3], hi[3], start[3], count = 1, padded_count = 1;
          for (int a = 0; a < 3; ++a) {
            start[a] = o[a] * g.stride[a] - g.pad[a];
            // taps t with 0 <= start + t*dil < in
            lo[a] = start[a] >= 0 ? 0 : (-start[a] + g.dil[a] - 1) / g.dil[a];
            int64_t last = v.in[a] - 1 - start[a];
            hi[a] = last < 0 ? 0 : std::min(g.k[a], last / g.dil[a] + 1);
            count *= std::max<int64_t>(hi[a] - lo[a], 0);
            int64_t end = std::min(start[a] + (g.k[a] - 1) * g.dil[a], v.in[a] + pa.pad_after[a] - 1);
            padded_count *= (end - start[a]) / g.dil[a] + 1;
          }
          T* dst = out + ob + o0 * v.out_str[0] + o1 * v.out_str[1] + o2 * v.out_str[2];
          Compute<T> best = lowest<T>();
          double fsum = 0;
          uint64_t isum = 0;
          for (int64_t t0 = lo[0]; t0 < hi[0]; ++t0)
            for (int64_t t1 = lo[1]; t1 < hi[1]; ++t1) {
              const T* row = in + ib + (start[0] + t0 * g.dil[0]) * v.in_str[0] +
                             (start[1] + t1 * g.dil[1]) * v.in_str[1];
              for (int64_t t2 = lo[2]; t2 < hi[2]; ++t2) {
                Compute<T> x = static_cast<Compute<T>>(row[(start[2] + t2 * g.dil[2]) * v.in_str[2]]);
                if (is_max) {
                  if (x > best) best = x;
                } else if constexpr (std::is_integral_v<T>) {
                  isum += static_cast<uint64_t>(static_cast<int64_t>(x));
                } else {
                  fsum += static_cast<double>(x);
                }
              }
            }
          if (is_max) *dst = static_cast<T>(best);
          else
            *dst = average<T>(fsum, static_cast<int64_t>(isum), divisor<T>(pa.count_include_pad, count, padded_count));
        }
  });
}

Value pool_nd(const KernelCall& call, size_t rank, bool is_max) {
  NDArray data = call.tensor(0);
  std::string letters = spatial_letters(rank);
  std::vector<size_t> axes = spatial_axes(call, data.ndim(), letters);
  PoolAttrs pa;
  std::vector<int64_t> pool = per_axis(call, "pool_size", rank), strides = per_axis(call, "strides", rank),
                       dil = per_axis(call, "dilation", rank), before, after, in(rank), outs(rank);
  read_padding(call, rank, before, after);
  const bool ceil_mode = call.attrs.get_bool("ceil_mode");
  for (size_t i = 0; i < rank; ++i) {
    in[i] = data.dim(axes[i]);
    int64_t span = in[i] + before[i] + after[i] - ((pool[i] - 1) * dil[i] + 1) + (ceil_mode ? strides[i] - 1 : 0);
    int64_t q = span >= 0 ? span / strides[i] : -((-span + strides[i] - 1) / strides[i]);
    outs[i] = q + 1;
    if (outs[i] <= 0)
      fail(call, "the window " + std::to_string((pool[i] - 1) * dil[i] + 1) + " does not fit axis " +
                     std::string(1, letters[i]) + " of data " + shape_to_string(data.shape()) +
                     " with its padding");
    pa.pad_after[3 - rank + i] = after[i];
  }
  set_axes(pa.g, rank, in, pool, strides, dil, before);
  pa.count_include_pad = call.attrs.get_bool("count_include_pad");
  PoolView v = pool_view(call, data.shape(), letters, outs);
  NDArray out = call.output(v.out_shape, data.dtype());  // every element is written
  dispatch_dtype(data.dtype(), [&]<class T>(TypeTag<T>) {
    pool_forward<T>(data.data<T>(), out.data<T>(), v, pa, is_max);
  });
  return call.finish(out);
}

Value global_pool(const KernelCall& call, bool is_max) {
  NDArray data = call.tensor(0);
  std::vector<size_t> axes = spatial_axes(call, data.ndim(), "HW");
  PoolAttrs pa;
  std::vector<int64_t> in = {data.dim(axes[0]), data.dim(axes[1])}, one = {1, 1}, zero = {0, 0};
  set_axes(pa.g, 2, in, in, one, one, zero);
  PoolView v = pool_view(call, data.shape(), "HW", one);
  NDArray out = call.output(v.out_shape, data.dtype());  // every element is written
  dispatch_dtype(data.dtype(), [&]<class T>(TypeTag<T>) {
    pool_forward<T>(data.data<T>(), out.data<T>(), v, pa, is_max);
  });
  return call.finish(out);
}

// nn.{max,avg}_pool2d_grad(out_grad, data), TOPI's pool_grad (which has no dilation): max
// routes each output gradient to the first maximum of its window (padding included in the
// search, so a window whose maximum is padding routes nothing); avg spreads it evenly over
// the window, divided by the window size (count_include_pad) or by its unpadded part.
Value pool2d_grad(const KernelCall& call, bool is_max) {
  NDArray og = call.tensor(0), data = call.tensor(1);
  if (og.dtype() != data.dtype())
    fail(call, "out_grad and data must have one dtype");
  std::vector<size_t> axes = spatial_axes(call, data.ndim(), "HW");
  if (og.ndim() != data.ndim())
    fail(call, "out_grad " + shape_to_string(og.shape()) + " and data " + shape_to_string(data.shape()) +
                   " must have the same rank");
  for (size_t d = 0; d < data.ndim(); ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end() && og.dim(d) != data.dim(d))
      fail(call, "out_grad " + shape_to_string(og.shape()) + " and data " +
                     shape_to_string(data.shape()) + " differ outside the pooled axes");
  std::vector<int64_t> pool = per_axis(call, "pool_size", 2), strides = per_axis(call, "strides", 2),
                       before, after, one = {1, 1};
  read_padding(call, 2, before, after);
  PoolAttrs pa;
  set_axes(pa.g, 2, {data.dim(axes[0]), data.dim(axes[1])}, pool, strides, one, before);
  const bool include_pad = call.attrs.get("count_include_pad") && call.attrs.get_bool("count_include_pad");
  PoolView v = pool_view(call, data.shape(), "HW", {og.dim(axes[0]), og.dim(axes[1])});
  NDArray out = NDArray::zeros(data.shape(), data.dtype());
  const Geom& g = pa.g;
  dispatch_dtype(data.dtype(), [&]<class T>(TypeTag<T>) {
    const T* x = data.data<T>();
    const T* gy = og.data<T>();
    T* gx = out.data<T>();
    // v's "in" strides address data and gx, its "out" strides address out_grad.
    for_each_outer(v, [&](int64_t ib, int64_t ob) {
      for (int64_t oh = 0; oh < v.out[1]; ++oh)
        for (int64_t ow = 0; ow < v.out[2]; ++ow) {
          Compute<T> grad = static_cast<Compute<T>>(gy[ob + oh * v.out_str[1] + ow * v.out_str[2]]);
          int64_t h0 = oh * g.stride[1] - g.pad[1], w0 = ow * g.stride[2] - g.pad[2];
          if (is_max) {
            Compute<T> best = lowest<T>();
            int64_t where = -1;
            bool first = true;
            for (int64_t kh = 0; kh < g.k[1]; ++kh)
              for (int64_t kw = 0; kw < g.k[2]; ++kw) {
                int64_t h = h0 + kh, w = w0 + kw;
                bool inside = h >= 0 && h < v.in[1] && w >= 0 && w < v.in[2];
                Compute<T> val = inside ? static_cast<Compute<T>>(x[ib + h * v.in_str[1] + w * v.in_str[2]])
                                        : lowest<T>();
                if (first || val > best) {
                  best = val;
                  where = inside ? ib + h * v.in_str[1] + w * v.in_str[2] : -1;
                  first = false;
                }
              }
            if (where >= 0) gx[where] = static_cast<T>(static_cast<Compute<T>>(gx[where]) + grad);
          } else {
            int64_t hs = std::max<int64_t>(h0, 0), he = std::min(h0 + g.k[1], v.in[1]);
            int64_t ws = std::max<int64_t>(w0, 0), we = std::min(w0 + g.k[2], v.in[2]);
            int64_t factor = include_pad ? g.k[1] * g.k[2] : std::max<int64_t>((he - hs) * (we - ws), 1);
            Compute<T> share;
            if constexpr (std::is_integral_v<T>) share = static_cast<T>(grad / static_cast<T>(factor));
            else share = grad / static_cast<Compute<T>>(factor);
            for (int64_t h = hs; h < he; ++h)
              for (int64_t w = ws; w < we; ++w) {
                T& dst = gx[ib + h * v.in_str[1] + w * v.in_str[2]];
                dst = static_cast<T>(static_cast<Compute<T>>(dst) + share);
              }
          }
        }
    });
  });
  return out;
}

}  // namespace

void register_pool_kernels(KernelTable& table) {
  register_destination_kernel(table, "nn.max_pool1d", [](const KernelCall& c) { return pool_nd(c, 1, true); });
  register_destination_kernel(table, "nn.max_pool2d", [](const KernelCall& c) { return pool_nd(c, 2, true); });
  register_destination_kernel(table, "nn.max_pool3d", [](const KernelCall& c) { return pool_nd(c, 3, true); });
  register_destination_kernel(table, "nn.avg_pool1d", [](const KernelCall& c) { return pool_nd(c, 1, false); });
  register_destination_kernel(table, "nn.avg_pool2d", [](const KernelCall& c) { return pool_nd(c, 2, false); });
  register_destination_kernel(table, "nn.avg_pool3d", [](const KernelCall& c) { return pool_nd(c, 3, false); });
  register_destination_kernel(table, "nn.global_max_pool2d", [](const KernelCall& c) { return global_pool(c, true); });
  register_destination_kernel(table, "nn.global_avg_pool2d", [](const KernelCall& c) { return global_pool(c, false); });
  register_kernel(table, "nn.max_pool2d_grad", [](const KernelCall& c) { return pool2d_grad(c, true); });
  register_kernel(table, "nn.avg_pool2d_grad", [](const KernelCall& c) { return pool2d_grad(c, false); });
}

}  // namespace relay::rt
