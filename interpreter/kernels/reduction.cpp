// §3.4 reductions sum, prod, max, min, mean, all, any (argmax, argmin and variance are in
// reduction_arg.cpp).
//
// Each output starts at the reducer's identity and folds in its elements in row-major
// order of the input, in the input's dtype as TVM's CommReduce does: integer sums and
// products wrap, float16 partial results are rounded to float16 at every step, max/min
// start from the dtype's lowest/highest *finite* value (TVM's min_value/max_value) and
// combine with selects (acc > x ? acc : x), and mean is the sum divided by the count
// (truncating for integers).
#include <limits>
#include <string>

#include "interpreter/kernels/elementwise_internal.h"
#include "interpreter/kernels/reduction_internal.h"

namespace relay::rt {

ReduceSpec reduce_spec(const KernelCall& call, const Shape& in) {
  const size_t rank = in.size();
  std::vector<int64_t> axes = call.attrs.get_ints("axis");
  std::vector<bool> reduced(rank, axes.empty());
  if (!axes.empty()) {
    for (int64_t a : axes) {
      const auto d = static_cast<size_t>(normalize_axis(a, rank, call.op.name));
      if (reduced[d])
        throw RuntimeError("`" + std::string(call.op.name) + "`: axis " + std::to_string(a) + " names dimension " +
                           std::to_string(d) + " of a rank-" + std::to_string(rank) + " tensor twice");
      reduced[d] = true;
    }
    if (call.attrs.get_bool("exclude")) reduced.flip();
  }
  return reduce_spec_of(std::move(reduced), in, call.attrs.get_bool("keepdims"));
}

ReduceSpec reduce_spec_of(std::vector<bool> reduced, const Shape& in, bool keepdims) {
  const size_t rank = in.size();
  ReduceSpec s;
  s.reduced = std::move(reduced);
  s.out_strides.assign(rank, 0);
  s.reduced_index_strides.assign(rank, 0);
  int64_t out_stride = 1, reduced_stride = 1;
  for (size_t d = rank; d-- > 0;) {
    if (s.reduced[d]) {
      s.reduced_index_strides[d] = reduced_stride;
      reduced_stride *= in[d];
      s.count *= in[d];
    } else {
      s.out_strides[d] = out_stride;
      out_stride *= in[d];
    }
  }
  for (size_t d = 0; d < rank; ++d) {
    if (!s.reduced[d]) s.out_shape.push_back(in[d]);
    else if (keepdims) s.out_shape.push_back(1);
  }
  return s;
}

namespace {

using namespace ew;

// Reducers: Acc<T> is the accumulator type, identity<T>() its start, step(acc, x) one
// fold, finish<T>(acc, count) the stored result.
// Accumulators are never `bool` (std::vector<bool> has no data()): bools fold as bytes.
template <class T> using NoBool = std::conditional_t<is_bool_v<T>, uint8_t, T>;

struct SumOp {
  template <class T> using Acc = std::conditional_t<is_int_v<T>, Wide<T>, NoBool<Compute<T>>>;
  template <class T> static Acc<T> identity() { return Acc<T>(0); }
  template <class T> static Acc<T> step(Acc<T> a, T x) {
    if constexpr (is_bool_v<T>) return a || x;
    else if constexpr (is_int_v<T>) return a + static_cast<Acc<T>>(x);
    else return rnd<T>(a + static_cast<Acc<T>>(x));
  }
};
struct ProdOp {
  template <class T> using Acc = SumOp::Acc<T>;
  template <class T> static Acc<T> identity() { return Acc<T>(1); }
  template <class T> static Acc<T> step(Acc<T> a, T x) {
    if constexpr (is_bool_v<T>) return a && x;
    else if constexpr (is_int_v<T>) return a * static_cast<Acc<T>>(x);
    else return rnd<T>(a * static_cast<Acc<T>>(x));
  }
};

// The dtype's extreme finite values (float16's are +-65504, as TVM's min_value says).
template <class T> Compute<T> lowest() {
  if constexpr (std::is_same_v<T, float16>) return -65504.0f;
  else if constexpr (std::is_same_v<T, bfloat16>) return -std::numeric_limits<float>::max();
  else return std::numeric_limits<T>::lowest();
}
template <class T> Compute<T> highest() {
  if constexpr (std::is_same_v<T, float16>) return 65504.0f;
  else if constexpr (std::is_same_v<T, bfloat16>) return std::numeric_limits<float>::max();
  else return std::numeric_limits<T>::max();
}

struct MaxOp {
  template <class T> using Acc = NoBool<Compute<T>>;
  template <class T> static Acc<T> identity() { return lowest<T>(); }
  template <class T> static Acc<T> step(Acc<T> a, T x) {
    const Acc<T> v = static_cast<Acc<T>>(x);
    return a > v ? a : v;
  }
};
struct MinOp {
  template <class T> using Acc = NoBool<Compute<T>>;
  template <class T> static Acc<T> identity() { return highest<T>(); }
  template <class T> static Acc<T> step(Acc<T> a, T x) {
    const Acc<T> v = static_cast<Acc<T>>(x);
    return a < v ? a : v;
  }
};
struct AllOp {
  template <class T> using Acc = uint8_t;
  template <class T> static uint8_t identity() { return 1; }
  template <class T> static uint8_t step(uint8_t a, T x) { return a && truthy(x); }
};
struct AnyOp {
  template <class T> using Acc = uint8_t;
  template <class T> static uint8_t identity() { return 0; }
  template <class T> static uint8_t step(uint8_t a, T x) { return a || truthy(x); }
};

// Folds every input element into acc[output offset].
template <class Op, class T, class A>
void fold(const T* in, A* acc, const RowPlan<2>& plan) {
  const int64_t n = plan.row_length();
  if (plan.inner_stride(1) == 0) {  // the row reduces into one output
    for_each_row(plan, [&](const auto& o) {
      A a = acc[o[1]];
      const T* __restrict x = in + o[0];
      for (int64_t i = 0; i < n; ++i) a = Op::template step<T>(a, x[i]);
      acc[o[1]] = a;
    });
  } else {  // the row folds into a row of outputs
    for_each_row(plan, [&](const auto& o) {
      A* __restrict a = acc + o[1];
      const T* __restrict x = in + o[0];
      for (int64_t i = 0; i < n; ++i) a[i] = Op::template step<T>(a[i], x[i]);
    });
  }
}

// Op's fold of x into the outputs the spec says.
template <class Op>
NDArray reduce_with(const NDArray& x, const ReduceSpec& spec) {
  NDArray out = NDArray::empty(spec.out_shape, x.dtype());
  dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) {
    using A = typename Op::template Acc<T>;
    std::vector<A> acc(static_cast<size_t>(out.size()), Op::template identity<T>());
    fold<Op>(x.data<T>(), acc.data(), reduce_plan(x.shape(), spec));
    T* o = out.data<T>();
    for (int64_t i = 0; i < out.size(); ++i) o[i] = static_cast<T>(acc[static_cast<size_t>(i)]);
  });
  return out;
}

template <class Op>
Value reduce_kernel(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  return reduce_with<Op>(x, reduce_spec(call, x.shape()));
}

}  // namespace

NDArray sum_over(const NDArray& x, const ReduceSpec& spec) { return reduce_with<SumOp>(x, spec); }

namespace {

// mean = sum / count, with count converted to the dtype (TVM's MeanCompute).
Value mean(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  const ReduceSpec spec = reduce_spec(call, x.shape());
  NDArray out = NDArray::empty(spec.out_shape, x.dtype());
  dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) {
    if constexpr (is_bool_v<T>) {
      throw RuntimeError("`mean` is not defined for bool tensors");
    } else {
      using A = SumOp::Acc<T>;
      std::vector<A> acc(static_cast<size_t>(out.size()), A(0));
      fold<SumOp>(x.data<T>(), acc.data(), reduce_plan(x.shape(), spec));
      T* o = out.data<T>();
      if constexpr (is_int_v<T>) {
        const T count = static_cast<T>(static_cast<Wide<T>>(spec.count));
        if (count == 0 && out.size() > 0)
          throw RuntimeError("integer division by zero in `mean`: it reduces " + std::to_string(spec.count) +
                             " elements of a " + dtype_name(x.dtype()) + " tensor of shape " +
                             shape_to_string(x.shape()));
        for (int64_t i = 0; i < out.size(); ++i) {
          const T s = static_cast<T>(acc[static_cast<size_t>(i)]);
          o[i] = (std::is_signed_v<T> && count == T(-1)) ? wrap_neg(s) : static_cast<T>(s / count);
        }
      } else {
        const Compute<T> count = rnd<T>(static_cast<Compute<T>>(spec.count));
        for (int64_t i = 0; i < out.size(); ++i) o[i] = static_cast<T>(acc[static_cast<size_t>(i)] / count);
      }
    }
  });
  return out;
}

}  // namespace

void register_reduction_kernels(KernelTable& t) {
  register_kernel(t, "sum", reduce_kernel<SumOp>);
  register_kernel(t, "prod", reduce_kernel<ProdOp>);
  register_kernel(t, "max", reduce_kernel<MaxOp>);
  register_kernel(t, "min", reduce_kernel<MinOp>);
  register_kernel(t, "all", reduce_kernel<AllOp>);
  register_kernel(t, "any", reduce_kernel<AnyOp>);
  register_kernel(t, "mean", mean);
  register_arg_reduction_kernels(t);
}

}  // namespace relay::rt
