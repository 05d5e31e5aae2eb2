// Ops whose output size depends on the data: sparse_to_dense, sparse_fill_empty_rows,
// sparse_reshape and unique.
#include <algorithm>
#include <numeric>

#include "interpreter/kernels/transform_internal.h"

namespace relay::rt {
namespace {

using namespace transform;

// sparse_to_dense: output_shape filled with default_value, then out[indices[i]] = values[i]
// (values may be one scalar for all); indices are a scalar or a vector into a 1-D output,
// or an (N, rank) matrix.
Value sparse_to_dense_kernel(const KernelCall& call) {
  NDArray indices = call.tensor(0), values = call.tensor(1), deflt = call.tensor(2);
  require_integer(call, indices, "sparse_indices");
  Shape shape = call.attrs.get_ints("output_shape");
  if (indices.ndim() > 2) fail(call, "sparse_indices must have rank 2 or less, found shape " + str(indices.shape()));
  if (deflt.size() != 1) fail(call, "default_value must be a scalar, found shape " + str(deflt.shape()));
  if (deflt.dtype() != values.dtype()) fail(call, "default_value and sparse_values have different dtypes");
  const int64_t n = indices.ndim() == 0 ? 1 : indices.dim(0);
  const int64_t rank = indices.ndim() == 2 ? indices.dim(1) : 1;
  if (rank != static_cast<int64_t>(shape.size()))
    fail(call, "sparse_indices of shape " + str(indices.shape()) + " do not address an output of shape " + str(shape));
  if (values.ndim() > 0 && values.size() != n)
    fail(call, "sparse_values of shape " + str(values.shape()) + " do not match sparse_indices of shape " + str(indices.shape()));
  const auto idx = int_values(indices);
  const auto own = contiguous_strides(shape);
  NDArray out = NDArray::empty(shape, values.dtype());
  dispatch_width(values.dtype(), [&]<class W>(TypeTag<W>) {
    W* d = out.data<W>();
    std::fill_n(d, out.size(), *deflt.data<W>());
    const W* v = values.data<W>();
    for (int64_t i = 0; i < n; ++i) {
      int64_t off = 0;
      for (int64_t j = 0; j < rank; ++j) {
        const int64_t k = idx[i * rank + j];
        if (k < 0 || k >= shape[j])
          fail(call, "index " + std::to_string(k) + " of sparse_indices row " + std::to_string(i) + " is out of range for output shape " + str(shape));
        off += k * own[j];
      }
      d[off] = v[values.ndim() ? i : 0];
    }
  });
  return out;
}

// sparse_fill_empty_rows: the entries (rows in ascending order, as TensorFlow requires), with
// one (row, 0, ..., 0) = default_value entry inserted for each row of dense_shape[0] that has
// none; plus a per-row indicator of the inserted rows. All three results are int64.
Value sparse_fill_empty_rows_kernel(const KernelCall& call) {
  NDArray indices = call.tensor(0), values = call.tensor(1), dense = call.tensor(2), deflt = call.tensor(3);
  require_integer(call, indices, "sparse_indices");
  if (indices.ndim() != 2) fail(call, "sparse_indices must be 2-D, found shape " + str(indices.shape()));
  const int64_t n = indices.dim(0), ndims = indices.dim(1);
  if (values.size() != n) fail(call, "sparse_values of shape " + str(values.shape()) + " do not match sparse_indices " + str(indices.shape()));
  const auto shape = int_values(dense);
  if (shape.empty() || ndims == 0) fail(call, "dense_shape " + str(dense.shape()) + " must name at least one dim");
  const int64_t rows = shape[0];
  if (rows < 0) fail(call, "dense_shape has a negative dim");
  const auto idx = int_values(indices), vals = int_values(values);
  const int64_t fill = int_values(deflt).at(0);
  std::vector<int64_t> out_idx, out_val, empty(static_cast<size_t>(rows), 1);
  int64_t next = 0;  // first row not yet emitted
  auto add_empty_rows = [&](int64_t upto) {
    for (; next < upto; ++next) {
      out_idx.push_back(next);
      out_idx.insert(out_idx.end(), static_cast<size_t>(ndims - 1), 0);
      out_val.push_back(fill);
    }
  };
  for (int64_t i = 0; i < n; ++i) {
    const int64_t row = idx[i * ndims];
    if (row < 0 || row >= rows) fail(call, "row " + std::to_string(row) + " of sparse_indices is out of range for dense_shape " + str(shape));
    if (row + 1 < next) fail(call, "sparse_indices must be ordered by row");
    add_empty_rows(row);
    next = std::max(next, row + 1);
    empty[row] = 0;
    out_idx.insert(out_idx.end(), idx.begin() + i * ndims, idx.begin() + (i + 1) * ndims);
    out_val.push_back(vals[i]);
  }
  add_empty_rows(rows);
  auto make = [](const std::vector<int64_t>& v, Shape s) {
    NDArray t = NDArray::empty(s, DataType::int_(64));
    if (!v.empty()) std::memcpy(t.raw(), v.data(), v.size() * sizeof(int64_t));
    return t;
  };
  return make_tuple({make(out_idx, {static_cast<int64_t>(out_val.size()), ndims}), make(out_val, {static_cast<int64_t>(out_val.size())}),
                     make(empty, {rows})});
}

// sparse_reshape: each entry's flat position under prev_shape re-expressed under new_shape
// (whose one -1 is inferred); returns the new indices and the resolved shape.
Value sparse_reshape_kernel(const KernelCall& call) {
  NDArray indices = call.tensor(0), prev = call.tensor(1), next = call.tensor(2);
  require_integer(call, indices, "sparse_indices");
  if (indices.ndim() != 2) fail(call, "sparse_indices must be 2-D, found shape " + str(indices.shape()));
  const auto in_shape = int_values(prev);
  auto out_shape = int_values(next);
  if (static_cast<int64_t>(in_shape.size()) != indices.dim(1))
    fail(call, "prev_shape " + str(in_shape) + " does not match sparse_indices of shape " + str(indices.shape()));
  int64_t total = 1, known = 1, infer = -1;
  for (int64_t d : in_shape) total *= d;
  for (size_t i = 0; i < out_shape.size(); ++i) {
    if (out_shape[i] == -1) {
      if (infer >= 0) fail(call, "new_shape " + str(out_shape) + " has more than one -1");
      infer = static_cast<int64_t>(i);
    } else if (out_shape[i] < 0) {
      fail(call, "new_shape " + str(out_shape) + " has a negative dim");
    } else {
      known *= out_shape[i];
    }
  }
  if (infer >= 0) {
    if (known == 0 || total % known) fail(call, "cannot infer the -1 of new_shape " + str(out_shape) + " for prev_shape " + str(in_shape));
    out_shape[infer] = total / known;
  } else if (known != total) {
    fail(call, "new_shape " + str(out_shape) + " and prev_shape " + str(in_shape) + " have different element counts");
  }
  const int64_t n = indices.dim(0), rin = indices.dim(1), rout = static_cast<int64_t>(out_shape.size());
  const auto idx = int_values(indices);
  const auto in_strides = contiguous_strides(in_shape), out_strides = contiguous_strides(out_shape);
  NDArray out_idx = NDArray::empty({n, rout}, indices.dtype());
  for (int64_t i = 0; i < n; ++i) {
    int64_t flat = 0;
    for (int64_t j = 0; j < rin; ++j) flat += idx[i * rin + j] * in_strides[j];
    for (int64_t j = 0; j < rout; ++j) {
      out_idx.set_int(i * rout + j, out_shape[j] ? flat / out_strides[j] : 0);
      if (out_shape[j]) flat %= out_strides[j];
    }
  }
  NDArray shape_out = NDArray::empty({rout}, next.dtype());
  for (int64_t j = 0; j < rout; ++j) shape_out.set_int(j, out_shape[j]);
  return make_tuple({out_idx, shape_out});
}

// unique (topi's layout): (unique values, first index of each, inverse indices, [count],
// counts when return_counts), each padded to the input's length: values and counts with 0,
// first indices with the length. `sorted` orders the values ascending, else by first
// occurrence.
Value unique_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  if (data.ndim() != 1) fail(call, "data must be 1-D, found shape " + str(data.shape()));
  const bool sorted = call.attrs.get_bool("sorted", true), counts = call.attrs.get_bool("return_counts", false);
  const int64_t n = data.size();
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::vector<int64_t> group(static_cast<size_t>(n));  // sorted-unique id of each element
  int64_t groups = 0;
  dispatch_dtype(data.dtype(), [&]<class T>(TypeTag<T>) {
    const T* p = data.data<T>();
    auto val = [&](int64_t i) { return static_cast<Compute<T>>(p[i]); };
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return val(a) < val(b); });
    for (int64_t i = 0; i < n; ++i) {
      if (i > 0 && val(order[i]) != val(order[i - 1])) ++groups;
      group[order[i]] = groups;
    }
  });
  if (n > 0) ++groups;
  // first[g]: the first index of sorted-unique g (stable sort: the first of its run).
  std::vector<int64_t> first(static_cast<size_t>(groups), n), count(static_cast<size_t>(groups), 0);
  for (int64_t i = n; i-- > 0;) first[group[i]] = i, ++count[group[i]];
  std::vector<int64_t> rank(static_cast<size_t>(groups));  // output slot of each group
  std::iota(rank.begin(), rank.end(), 0);
  if (!sorted) {
    std::vector<int64_t> by_first(static_cast<size_t>(groups));
    std::iota(by_first.begin(), by_first.end(), 0);
    std::sort(by_first.begin(), by_first.end(), [&](int64_t a, int64_t b) { return first[a] < first[b]; });
    for (int64_t s = 0; s < groups; ++s) rank[by_first[s]] = s;
  }
  NDArray values = NDArray::zeros({n}, data.dtype());
  NDArray first_out = NDArray::empty({n}, DataType::int_(32)), inverse = NDArray::empty({n}, DataType::int_(32));
  NDArray num = NDArray::empty({1}, DataType::int_(32)), count_out = NDArray::zeros({n}, DataType::int_(32));
  auto* fo = first_out.data<int32_t>();
  std::fill_n(fo, n, static_cast<int32_t>(n));
  dispatch_width(data.dtype(), [&]<class W>(TypeTag<W>) {
    const W* s = data.data<W>();
    W* v = values.data<W>();
    for (int64_t g = 0; g < groups; ++g) v[rank[g]] = s[first[g]];
  });
  for (int64_t g = 0; g < groups; ++g) {
    fo[rank[g]] = static_cast<int32_t>(first[g]);
    count_out.data<int32_t>()[rank[g]] = static_cast<int32_t>(count[g]);
  }
  for (int64_t i = 0; i < n; ++i) inverse.data<int32_t>()[i] = static_cast<int32_t>(rank[group[i]]);
  num.data<int32_t>()[0] = static_cast<int32_t>(groups);
  std::vector<Value> out{values, first_out, inverse, num};
  if (counts) out.push_back(count_out);
  return make_tuple(std::move(out));
}

}  // namespace

void register_transform_sparse_kernels(KernelTable& t) {
  register_kernel(t, "sparse_to_dense", sparse_to_dense_kernel);
  register_kernel(t, "sparse_fill_empty_rows", sparse_fill_empty_rows_kernel);
  register_kernel(t, "sparse_reshape", sparse_reshape_kernel);
  register_kernel(t, "unique", unique_kernel);
}

}  // namespace relay::rt
