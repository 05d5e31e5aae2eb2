// §3.4 argmax, argmin and variance.
//
// argmax/argmin are TOPI's index-value reducers: the accumulator starts at (-1, the
// dtype's lowest (argmax) or highest (argmin) finite value) and takes an element when it
// is strictly better, or equal with a smaller index (select_last_index: a larger one).
// The index is the element's row-major position among the reduced dimensions. So a row
// holding only -inf (argmax) answers -1, as TVM does.
//
// variance(data, mean) is TVM's VarianceCompute: sum((data - mean)^2) over the reduced
// axes divided by the count (count - 1 when unbiased), each step in data's dtype.
#include <limits>
#include <string>

#include "interpreter/kernels/elementwise_internal.h"
#include "interpreter/kernels/reduction_internal.h"

namespace relay::rt {
namespace {

using namespace ew;

template <class T> Compute<T> extreme(bool want_max) {
  if constexpr (std::is_same_v<T, float16>) return want_max ? -65504.0f : 65504.0f;
  else if constexpr (std::is_same_v<T, bfloat16>)
    return want_max ? -std::numeric_limits<float>::max() : std::numeric_limits<float>::max();
  else return want_max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
}

template <bool kMax>
Value arg_reduce(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  if (x.ndim() == 0) throw RuntimeError("`" + std::string(call.op.name) + "` needs a tensor of rank at least 1");
  const ReduceSpec spec = reduce_spec(call, x.shape());
  const bool last = call.attrs.get_bool("select_last_index");
  NDArray out = NDArray::empty(spec.out_shape, result_dtype(call, DataType::int_(32)));
  dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) {
    using C = Compute<T>;
    const auto outputs = static_cast<size_t>(out.size());
    std::vector<int64_t> best_index(outputs, -1);
    std::vector<std::conditional_t<is_bool_v<T>, uint8_t, C>> best(outputs, extreme<T>(kMax));
    const RowPlan<3> plan = plan_rows<3>(x.shape(), {contiguous_strides(x.shape()), spec.out_strides,
                                                     spec.reduced_index_strides});
    const T* in = x.data<T>();
    const int64_t n = plan.row_length();
    const int64_t so = plan.inner_stride(1), sr = plan.inner_stride(2);
    for_each_row(plan, [&](const auto& o) {
      for (int64_t i = 0; i < n; ++i) {
        const C v = static_cast<C>(in[o[0] + i]);
        const auto k = static_cast<size_t>(o[1] + i * so);
        const int64_t idx = o[2] + i * sr;
        const C cur = static_cast<C>(best[k]);
        const bool better = kMax ? cur > v : cur < v;  // the accumulator stays ahead
        const bool keep_index = better || (cur == v && (last ? best_index[k] > idx : best_index[k] < idx));
        if (!keep_index) best_index[k] = idx;
        if (!better) best[k] = v;
      }
    });
    for (size_t k = 0; k < outputs; ++k) out.set_int(static_cast<int64_t>(k), best_index[k]);
  });
  return out;
}

Value variance(const KernelCall& call) {
  const NDArray x = call.tensor(0), m = call.tensor(1);
  if (x.dtype() != m.dtype())
    throw RuntimeError("`variance`: data is " + dtype_name(x.dtype()) + " but mean is " + dtype_name(m.dtype()));
  if (broadcast_shapes(x.shape(), m.shape(), "variance") != x.shape())
    throw RuntimeError("`variance`: mean of shape " + shape_to_string(m.shape()) +
                       " does not broadcast to data's shape " + shape_to_string(x.shape()));
  const ReduceSpec spec = reduce_spec(call, x.shape());
  const int64_t count = spec.count - (call.attrs.get_bool("unbiased") ? 1 : 0);
  NDArray out = NDArray::empty(spec.out_shape, x.dtype());
  dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) {
    if constexpr (is_bool_v<T>) {
      throw RuntimeError("`variance` is not defined for bool tensors");
    } else {
      using A = std::conditional_t<is_int_v<T>, Wide<T>, Compute<T>>;
      const auto outputs = static_cast<size_t>(out.size());
      std::vector<A> acc(outputs, A(0));
      const RowPlan<3> plan = plan_rows<3>(
          x.shape(), {contiguous_strides(x.shape()), broadcast_strides(m.shape(), x.shape()), spec.out_strides});
      const T* in = x.data<T>();
      const T* mu = m.data<T>();
      const int64_t n = plan.row_length();
      const int64_t sm = plan.inner_stride(1), so = plan.inner_stride(2);
      for_each_row(plan, [&](const auto& o) {
        for (int64_t i = 0; i < n; ++i) {
          A& a = acc[static_cast<size_t>(o[2] + i * so)];
          if constexpr (is_int_v<T>) {
            const A d = static_cast<A>(in[o[0] + i]) - static_cast<A>(mu[o[1] + i * sm]);
            a += static_cast<A>(static_cast<T>(d * d));
          } else {
            const A d = rnd<T>(static_cast<A>(in[o[0] + i]) - static_cast<A>(mu[o[1] + i * sm]));
            a = rnd<T>(a + rnd<T>(d * d));
          }
        }
      });
      T* o = out.data<T>();
      if constexpr (is_int_v<T>) {
        const T c = static_cast<T>(static_cast<Wide<T>>(count));
        if (c == 0 && outputs > 0)
          throw RuntimeError("integer division by zero in `variance`: the divisor (count" +
                             std::string(call.attrs.get_bool("unbiased") ? " - 1" : "") + ") is 0 for data of shape " +
                             shape_to_string(x.shape()));
        for (size_t k = 0; k < outputs; ++k) {
          const T s = static_cast<T>(acc[k]);
          o[k] = (std::is_signed_v<T> && c == T(-1)) ? wrap_neg(s) : static_cast<T>(s / c);
        }
      } else {
        const Compute<T> c = rnd<T>(static_cast<Compute<T>>(count));
        for (size_t k = 0; k < outputs; ++k) o[k] = static_cast<T>(acc[k] / c);
      }
    }
  });
  return out;
}

}  // namespace

void register_arg_reduction_kernels(KernelTable& t) {
  register_kernel(t, "argmax", arg_reduce<true>);
  register_kernel(t, "argmin", arg_reduce<false>);
  register_kernel(t, "variance", variance);
}

}  // namespace relay::rt
