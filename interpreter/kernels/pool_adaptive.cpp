// nn.adaptive_{max,avg}_pool{1,2,3}d (reference §3.7): output position o of an axis of
// extent `in` pools [floor(o*in/out), ceil((o+1)*in/out)), as TOPI's adaptive_pool.
#include <algorithm>
#include <limits>

#include "interpreter/kernels/conv_pool_internal.h"

namespace relay::rt {
namespace {

using namespace convpool;

Value adaptive_pool(const KernelCall& call, size_t rank, bool is_max) {
  NDArray data = call.tensor(0);
  std::string letters = spatial_letters(rank);
  std::vector<size_t> axes = spatial_axes(call, data.ndim(), letters);
  std::vector<int64_t> sizes = call.attrs.get_ints("output_size"), in(rank);
  for (size_t i = 0; i < rank; ++i) in[i] = data.dim(axes[i]);
  if (sizes.empty()) sizes = in;
  if (sizes.size() == 1) sizes.assign(rank, sizes[0]);
  if (sizes.size() != rank)
    fail(call, "`output_size` needs 0, 1 or " + std::to_string(rank) + " values, but has " +
                   std::to_string(sizes.size()));
  for (size_t i = 0; i < rank; ++i)
    if (sizes[i] < 0)
      fail(call, "`output_size` values must not be negative");
  PoolView v = pool_view(call, data.shape(), letters, sizes);
  // Window bounds per axis and output position.
  std::vector<int64_t> lo[3], hi[3];
  for (int a = 0; a < 3; ++a)
    for (int64_t o = 0; o < v.out[a]; ++o) {
      lo[a].push_back(o * v.in[a] / v.out[a]);
      hi[a].push_back(((o + 1) * v.in[a] + v.out[a] - 1) / v.out[a]);
    }
  NDArray out = NDArray::empty(v.out_shape, data.dtype());
  dispatch_dtype(data.dtype(), [&]<class T>(TypeTag<T>) {
    const T* x = data.data<T>();
    T* y = out.data<T>();
    for_each_outer(v, [&](int64_t ib, int64_t ob) {
      for (int64_t o0 = 0; o0 < v.out[0]; ++o0)
        for (int64_t o1 = 0; o1 < v.out[1]; ++o1)
          for (int64_t o2 = 0; o2 < v.out[2]; ++o2) {
            Compute<T> best{};
            bool any = false;
            double fsum = 0;
            uint64_t isum = 0;
            for (int64_t i0 = lo[0][o0]; i0 < hi[0][o0]; ++i0)
              for (int64_t i1 = lo[1][o1]; i1 < hi[1][o1]; ++i1)
                for (int64_t i2 = lo[2][o2]; i2 < hi[2][o2]; ++i2) {
                  Compute<T> val = static_cast<Compute<T>>(
                      x[ib + i0 * v.in_str[0] + i1 * v.in_str[1] + i2 * v.in_str[2]]);
                  if (is_max) {
                    if (!any || val > best) best = val;
                  } else if constexpr (std::is_integral_v<T>) {
                    isum += static_cast<uint64_t>(static_cast<int64_t>(val));
                  } else {
                    fsum += static_cast<double>(val);
                  }
                  any = true;
                }
            int64_t count = (hi[0][o0] - lo[0][o0]) * (hi[1][o1] - lo[1][o1]) * (hi[2][o2] - lo[2][o2]);
            T& dst = y[ob + o0 * v.out_str[0] + o1 * v.out_str[1] + o2 * v.out_str[2]];
            if (is_max) {
              dst = static_cast<T>(best);
            } else if constexpr (std::is_same_v<T, bool>) {
              dst = isum != 0;
            } else if constexpr (std::is_integral_v<T>) {
              int64_t s = static_cast<int64_t>(static_cast<T>(static_cast<int64_t>(isum)));
              dst = static_cast<T>(count > 0 ? s / count : 0);
            } else {
              dst = static_cast<T>(static_cast<Compute<T>>(count > 0 ? fsum / static_cast<double>(count) : 0.0));
            }
          }
    });
  });
  return out;
}

}  // namespace

void register_pool_adaptive_kernels(KernelTable& table) {
  register_kernel(table, "nn.adaptive_max_pool1d", [](const KernelCall& c) { return adaptive_pool(c, 1, true); });
  register_kernel(table, "nn.adaptive_max_pool2d", [](const KernelCall& c) { return adaptive_pool(c, 2, true); });
  register_kernel(table, "nn.adaptive_max_pool3d", [](const KernelCall& c) { return adaptive_pool(c, 3, true); });
  register_kernel(table, "nn.adaptive_avg_pool1d", [](const KernelCall& c) { return adaptive_pool(c, 1, false); });
  register_kernel(table, "nn.adaptive_avg_pool2d", [](const KernelCall& c) { return adaptive_pool(c, 2, false); });
  register_kernel(table, "nn.adaptive_avg_pool3d", [](const KernelCall& c) { return adaptive_pool(c, 3, false); });
}

}  // namespace relay::rt
