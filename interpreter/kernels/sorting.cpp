// §3.6 sort, argsort, topk and searchsorted.
//
// TVM runs sort/argsort/topk on the CPU through its contrib sort (std::stable_sort of
// (index, value) pairs per row), so ties keep their original order in both directions;
// topk keeps the first k of the sorted row. Comparisons put NaN after every number
// (before, when descending) so that the order stays a strict weak ordering.
// searchsorted is TOPI's per-value binary search (lower bound, or upper bound with
// `right`), in a 1-D sequence or in the matching row of an N-D one.
#include <algorithm>
#include <cmath>
#include <optional>
#include <numeric>
#include <string>
#include <vector>

#include "interpreter/kernels/kernel_util.h"

namespace relay::rt {
namespace {

std::string quoted(const KernelCall& call) { return "`" + std::string(call.op.name) + "`"; }

// The dtype of returned indices: `dtype`, or int32 (what TVM's builders pass) when unset.
DataType index_dtype(const KernelCall& call) {
  std::optional<DataType> t = call.attrs.get_dtype("dtype");
  return t && !t->is_void() ? *t : DataType::int_(32);
}

// Writes int64 positions into a tensor of any dtype (argsort may return floats).
void store_indices(const NDArray& out, const std::vector<int64_t>& idx) {
  dispatch_dtype(out.dtype(), [&]<class T>(TypeTag<T>) {
    T* o = out.data<T>();
    for (size_t i = 0; i < idx.size(); ++i) {
      if constexpr (std::is_integral_v<T>) o[i] = static_cast<T>(idx[i]);
      else o[i] = cast_to<T>(static_cast<double>(idx[i]));
    }
  });
}

template <class C> bool nan_last_less(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

// A tensor seen as (outer, len, inner) around `axis`.
struct Lines {
  int64_t outer = 1, len = 1, inner = 1;
};
Lines lines_around(const Shape& shape, size_t axis) {
  Lines l;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d < axis) l.outer *= shape[d];
    else if (d == axis) l.len = shape[d];
    else l.inner *= shape[d];
  }
  return l;
}

// Sorts every line of `x` along `axis` and hands each line's first `keep` positions to
// emit(line_in_offset, line_out_offset, order) with order[j] the source position along
// the axis of output position j.
template <class T, class Emit>
void sort_lines(const NDArray& x, size_t axis, bool ascend, int64_t keep, Emit&& emit) {
  using C = Compute<T>;
  const Lines l = lines_around(x.shape(), axis);
  const T* data = x.data<T>();
  std::vector<int64_t> order(static_cast<size_t>(l.len));
  std::vector<C> key(static_cast<size_t>(l.len));
  for (int64_t o = 0; o < l.outer; ++o) {
    for (int64_t i = 0; i < l.inner; ++i) {
      const int64_t base = o * l.len * l.inner + i;
      for (int64_t j = 0; j < l.len; ++j) key[static_cast<size_t>(j)] = static_cast<C>(data[base + j * l.inner]);
      std::iota(order.begin(), order.end(), int64_t{0});
      if (ascend)
        std::stable_sort(order.begin(), order.end(),
                         [&](int64_t a, int64_t b) { return nan_last_less(key[static_cast<size_t>(a)], key[static_cast<size_t>(b)]); });
      else
        std::stable_sort(order.begin(), order.end(),
                         [&](int64_t a, int64_t b) { return nan_last_less(key[static_cast<size_t>(b)], key[static_cast<size_t>(a)]); });
      emit(base, o * keep * l.inner + i, l.inner, order);
    }
  }
}

size_t sort_axis(const KernelCall& call, const NDArray& x) {
  if (x.ndim() == 0) throw RuntimeError(quoted(call) + " needs a tensor of rank at least 1");
  return static_cast<size_t>(normalize_axis(call.attrs.get_int("axis", -1), x.ndim(), call.op.name));
}

Value sort(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  const size_t axis = sort_axis(call, x);
  const bool ascend = call.attrs.get_bool("is_ascend", true);
  NDArray out = NDArray::empty(x.shape(), x.dtype());
  dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) {
    const T* in = x.data<T>();
    T* o = out.data<T>();
    sort_lines<T>(x, axis, ascend, x.dim(axis), [&](int64_t src, int64_t dst, int64_t step, const auto& order) {
      for (size_t j = 0; j < order.size(); ++j) o[dst + static_cast<int64_t>(j) * step] = in[src + order[j] * step];
    });
  });
  return out;
}

Value argsort(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  const size_t axis = sort_axis(call, x);
  const bool ascend = call.attrs.get_bool("is_ascend", true);
  NDArray out = NDArray::empty(x.shape(), index_dtype(call));
  std::vector<int64_t> idx(static_cast<size_t>(x.size()));
  dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) {
    sort_lines<T>(x, axis, ascend, x.dim(axis), [&](int64_t, int64_t dst, int64_t step, const auto& order) {
      for (size_t j = 0; j < order.size(); ++j) idx[static_cast<size_t>(dst + static_cast<int64_t>(j) * step)] = order[j];
    });
  });
  store_indices(out, idx);
  return out;
}

Value topk(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  const size_t axis = sort_axis(call, x);
  const bool ascend = call.attrs.get_bool("is_ascend", false);
  const std::string ret_type = call.attrs.get_string("ret_type");
  if (ret_type != "both" && ret_type != "values" && ret_type != "indices")
    throw RuntimeError(quoted(call) + ": unknown ret_type \"" + ret_type + "\" (expected both, values or indices)");
  const int64_t len = x.dim(axis);
  int64_t k = call.attrs.get_opt_int("k").value_or(0);
  if (k < 1) k = len;
  if (k > len)
    throw RuntimeError(quoted(call) + ": k = " + std::to_string(k) + " exceeds the size " + std::to_string(len) +
                       " of axis " + std::to_string(axis) + " of data of shape " + shape_to_string(x.shape()));
  Shape shape = x.shape();
  shape[axis] = k;
  NDArray values = NDArray::empty(shape, x.dtype());
  NDArray indices = NDArray::empty(shape, index_dtype(call));
  std::vector<int64_t> idx(static_cast<size_t>(values.size()));
  dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) {
    const T* in = x.data<T>();
    T* v = values.data<T>();
    sort_lines<T>(x, axis, ascend, k, [&](int64_t src, int64_t dst, int64_t step, const auto& order) {
      for (int64_t j = 0; j < k; ++j) {
        v[dst + j * step] = in[src + order[static_cast<size_t>(j)] * step];
        idx[static_cast<size_t>(dst + j * step)] = order[static_cast<size_t>(j)];
      }
    });
  });
  store_indices(indices, idx);
  if (ret_type == "values") return values;
  if (ret_type == "indices") return indices;
  return make_tuple({values, indices});
}

Value searchsorted(const KernelCall& call) {
  const NDArray seq = call.tensor(0), values = call.tensor(1);
  if (seq.dtype() != values.dtype())
    throw RuntimeError(quoted(call) + ": sorted_sequence is " + dtype_name(seq.dtype()) + " but values is " +
                       dtype_name(values.dtype()));
  if (values.ndim() == 0 || seq.ndim() == 0)
    throw RuntimeError(quoted(call) + " needs sorted_sequence and values of rank at least 1");
  if (seq.ndim() > 1) {
    bool rows_match = seq.ndim() == values.ndim();
    for (size_t d = 0; rows_match && d + 1 < seq.ndim(); ++d) rows_match = seq.dim(d) == values.dim(d);
    if (!rows_match)
      throw RuntimeError(quoted(call) + ": an N-D sorted_sequence must match values on every dimension but the last; "
                         "sorted_sequence has shape " + shape_to_string(seq.shape()) + ", values " +
                         shape_to_string(values.shape()));
  }
  const bool right = call.attrs.get_bool("right");
  const int64_t m = seq.dim(seq.ndim() - 1);
  const int64_t per_row = values.dim(values.ndim() - 1);
  NDArray out = NDArray::empty(values.shape(), index_dtype(call));
  std::vector<int64_t> idx(static_cast<size_t>(values.size()));
  dispatch_dtype(seq.dtype(), [&]<class T>(TypeTag<T>) {
    using C = Compute<T>;
    const T* s = seq.data<T>();
    const T* v = values.data<T>();
    for (int64_t i = 0; i < values.size(); ++i) {
      const T* row = seq.ndim() == 1 ? s : s + (i / per_row) * m;
      const C x = static_cast<C>(v[i]);
      int64_t lo = 0, hi = m;
      while (lo < hi) {
        const int64_t mid = lo + ((hi - lo) >> 1);
        const C at = static_cast<C>(row[mid]);
        if (right ? x >= at : x > at) lo = mid + 1;
        else hi = mid;
      }
      idx[static_cast<size_t>(i)] = lo;
    }
  });
  store_indices(out, idx);
  return out;
}

}  // namespace

void register_sorting_kernels(KernelTable& t) {
  register_kernel(t, "sort", sort);
  register_kernel(t, "argsort", argsort);
  register_kernel(t, "topk", topk);
  register_kernel(t, "searchsorted", searchsorted);
}

}  // namespace relay::rt
