// Indexing: take, gather, gather_nd, scatter_elements, scatter_nd, adv_index, one_hot,
// unravel_index, argwhere. topi reads an index without checking it (out-of-bounds memory);
// here an index outside the addressed dim is a RuntimeError naming the operand and shapes.
#include <algorithm>

#include "interpreter/kernels/transform_internal.h"

namespace relay::rt {
namespace {

using namespace transform;

int64_t product(const Shape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i) p *= s[i];
  return p;
}

[[noreturn]] void out_of_range(const KernelCall& call, int64_t index, int64_t dim, const NDArray& data, const NDArray& indices) {
  fail(call, "index " + std::to_string(index) + " is out of range for a dim of size " + std::to_string(dim) +
                 " (data of shape " + str(data.shape()) + ", indices of shape " + str(indices.shape()) + ")");
}

// An index checked against [0, dim).
int64_t checked(const KernelCall& call, int64_t index, int64_t dim, const NDArray& data, const NDArray& indices) {
  if (index < 0 || index >= dim) out_of_range(call, index, dim, data, indices);
  return index;
}

// Copies `chunk` elements (of the data's width) per (dst, src) offset pair.
template <class F> void copy_chunks(const NDArray& from, const NDArray& to, int64_t chunk, F&& pairs) {
  const size_t esize = dtype_bytes(from.dtype());
  const auto* s = static_cast<const unsigned char*>(from.raw());
  auto* d = static_cast<unsigned char*>(to.raw());
  const size_t bytes = static_cast<size_t>(chunk) * esize;
  if (bytes == 0) return;
  pairs([&](int64_t dst, int64_t src) { std::memcpy(d + static_cast<size_t>(dst) * esize, s + static_cast<size_t>(src) * esize, bytes); });
}

Value take_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0), indices = call.tensor(1);
  require_integer(call, indices, "indices");
  const std::string mode = call.attrs.get_string("mode");
  if (mode != "clip" && mode != "wrap" && mode != "fast")
    fail(call, "`mode` must be \"clip\", \"wrap\" or \"fast\", found \"" + mode + "\"");
  const int how = mode == "clip" ? 0 : mode == "wrap" ? 1 : 2;
  auto resolve = [&](int64_t i, int64_t dim) -> int64_t {
    if (how == 0) {
      if (dim == 0) out_of_range(call, i, dim, data, indices);
      return std::clamp<int64_t>(i, 0, dim - 1);
    }
    if (how == 1) {
      if (dim == 0) out_of_range(call, i, dim, data, indices);
      return ((i % dim) + dim) % dim;
    }
    return checked(call, i, dim, data, indices);
  };
  const auto idx = int_values(indices);
  if (call.attrs.is_none("axis")) {
    NDArray out = NDArray::empty(indices.shape(), data.dtype());
    std::vector<int64_t> src(idx.size());
    for (size_t i = 0; i < idx.size(); ++i) src[i] = resolve(idx[i], data.size());
    gather_elements(data, out, src);
    return out;
  }
  const size_t axis = static_cast<size_t>(axis_attr(call, "axis", data.ndim()));
  int64_t b = call.attrs.get_int("batch_dims", 0);
  if (b < 0) b += static_cast<int64_t>(indices.ndim());
  if (b < 0 || b > static_cast<int64_t>(std::min(axis, indices.ndim())))
    fail(call, "`batch_dims` " + std::to_string(call.attrs.get_int("batch_dims", 0)) + " is out of range");
  const size_t nb = static_cast<size_t>(b);
  for (size_t i = 0; i < nb; ++i)
    if (data.dim(i) != indices.dim(i))
      fail(call, "batch dim " + std::to_string(i) + " differs: data " + str(data.shape()) + ", indices " + str(indices.shape()));
  Shape out_shape(data.shape().begin(), data.shape().begin() + axis);
  out_shape.insert(out_shape.end(), indices.shape().begin() + nb, indices.shape().end());
  out_shape.insert(out_shape.end(), data.shape().begin() + axis + 1, data.shape().end());
  NDArray out = NDArray::empty(out_shape, data.dtype());
  const int64_t outer = product(data.shape(), 0, axis), per_batch = product(data.shape(), nb, axis);
  const int64_t count = product(indices.shape(), nb, indices.ndim()), dim = data.dim(axis);
  const int64_t post = product(data.shape(), axis + 1, data.ndim());
  copy_chunks(data, out, post, [&](auto&& copy) {
    for (int64_t p = 0; p < outer; ++p) {
      const int64_t batch = per_batch ? p / per_batch : 0;
      for (int64_t i = 0; i < count; ++i)
        copy((p * count + i) * post, (p * dim + resolve(idx[batch * count + i], dim)) * post);
    }
  });
  if (post == 0 || outer == 0)  // still validate the indices
    for (int64_t v : idx) resolve(v, dim);
  return out;
}

Value gather_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0), indices = call.tensor(1);
  require_integer(call, indices, "indices");
  const size_t axis = static_cast<size_t>(axis_attr(call, "axis", data.ndim()));
  if (indices.ndim() != data.ndim()) fail(call, "indices of shape " + str(indices.shape()) + " must have the rank of data " + str(data.shape()));
  for (size_t d = 0; d < data.ndim(); ++d)
    if (d != axis && indices.dim(d) != data.dim(d))
      fail(call, "dim " + std::to_string(d) + " differs: data " + str(data.shape()) + ", indices " + str(indices.shape()));
  const auto idx = int_values(indices);
  const auto own = contiguous_strides(data.shape());
  const int64_t inner = product(data.shape(), axis + 1, data.ndim()), dim = data.dim(axis), count = indices.dim(axis);
  std::vector<int64_t> src(idx.size());
  for (size_t i = 0; i < idx.size(); ++i) {
    const int64_t flat = static_cast<int64_t>(i);
    const int64_t outer = flat / (count * inner), rest = flat % inner;
    src[i] = outer * dim * inner + checked(call, idx[i], dim, data, indices) * own[axis] + rest;
  }
  NDArray out = NDArray::empty(indices.shape(), data.dtype());
  gather_elements(data, out, src);
  return out;
}

// The index depth M of an N-d index tensor (M, Y...): its first dim, or index_rank.
int64_t index_depth(const KernelCall& call, const NDArray& indices, size_t limit) {
  if (indices.ndim() == 0) fail(call, "indices must have rank 1 or more");
  const int64_t m = indices.dim(0);
  if (auto r = call.attrs.get_opt_int("index_rank"); r && *r != m)
    fail(call, "`index_rank` " + std::to_string(*r) + " differs from the first dim of indices " + str(indices.shape()));
  if (m > static_cast<int64_t>(limit)) fail(call, "indices of shape " + str(indices.shape()) + " address more dims than data has");
  return m;
}

Value gather_nd_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0), indices = call.tensor(1);
  require_integer(call, indices, "indices");
  const int64_t b = call.attrs.get_int("batch_dims", 0);
  if (b < 0 || b >= static_cast<int64_t>(indices.ndim()) || b > static_cast<int64_t>(data.ndim()))
    fail(call, "`batch_dims` " + std::to_string(b) + " is out of range");
  const size_t nb = static_cast<size_t>(b);
  const int64_t m = index_depth(call, indices, data.ndim() - nb);
  for (size_t i = 0; i < nb; ++i)
    if (data.dim(i) != indices.dim(i + 1))
      fail(call, "batch dim " + std::to_string(i) + " differs: data " + str(data.shape()) + ", indices " + str(indices.shape()));
  Shape out_shape(indices.shape().begin() + 1, indices.shape().end());
  out_shape.insert(out_shape.end(), data.shape().begin() + nb + m, data.shape().end());
  NDArray out = NDArray::empty(out_shape, data.dtype());
  const auto idx = int_values(indices);
  const auto own = contiguous_strides(data.shape());
  const int64_t positions = product(indices.shape(), 1, indices.ndim());
  const int64_t per_batch = product(indices.shape(), 1 + nb, indices.ndim());
  const int64_t chunk = product(data.shape(), nb + m, data.ndim());
  const int64_t batch_stride = product(data.shape(), nb, data.ndim());
  std::vector<int64_t> src(static_cast<size_t>(positions));
  for (int64_t q = 0; q < positions; ++q) {
    int64_t off = (per_batch ? q / per_batch : 0) * batch_stride;
    for (int64_t j = 0; j < m; ++j)
      off += checked(call, idx[j * positions + q], data.dim(nb + j), data, indices) * own[nb + j];
    src[q] = off;
  }
  copy_chunks(data, out, chunk, [&](auto&& copy) {
    for (int64_t q = 0; q < positions; ++q) copy(q * chunk, src[q]);
  });
  return out;
}

// Applies `reduction` of an update `u` to `dst` in the data's compute type.
template <class T> void reduce_into(T& dst, T u, int mode) {
  using C = Compute<T>;
  if constexpr (std::is_same_v<T, bool>) {
    switch (mode) {
      case 0: dst = u; break;
      case 1: case 5: dst = dst || u; break;
      case 2: case 4: dst = dst && u; break;
      case 3: dst = dst || u; break;
    }
  } else {
    const C a = static_cast<C>(dst), b = static_cast<C>(u);
    C r = b;
    if constexpr (std::is_integral_v<C>) {
      using U = uint64_t;  // wraps like TVM's integer arithmetic
      switch (mode) {
        case 1: r = static_cast<C>(static_cast<U>(a) + static_cast<U>(b)); break;
        case 2: r = static_cast<C>(static_cast<U>(a) * static_cast<U>(b)); break;
        case 3: r = static_cast<C>((static_cast<int64_t>(a) + static_cast<int64_t>(b)) / 2); break;
        case 4: r = std::min(a, b); break;
        case 5: r = std::max(a, b); break;
      }
    } else {
      switch (mode) {
        case 1: r = a + b; break;
        case 2: r = a * b; break;
        case 3: r = (a + b) / 2; break;
        case 4: r = std::min(a, b); break;
        case 5: r = std::max(a, b); break;
      }
    }
    dst = static_cast<T>(r);
  }
}

int reduction_mode(const KernelCall& call, const std::string& name) {
  static const char* const kModes[] = {"update", "add", "mul", "mean", "min", "max"};
  for (int i = 0; i < 6; ++i)
    if (name == kModes[i]) return i;
  fail(call, "unknown reduction \"" + name + "\" (update, add, mul, mean, min or max)");
}

// scatter_elements: out = data; out[..., indices[p], ...] (at axis) = f(out, updates[p]) for
// every p of indices in row-major order; a negative index counts from the end of the axis.
Value scatter_elements_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0), indices = call.tensor(1), updates = call.tensor(2);
  require_integer(call, indices, "indices");
  const size_t axis = static_cast<size_t>(axis_attr(call, "axis", data.ndim()));
  const int mode = reduction_mode(call, call.attrs.get_string("reduction"));
  if (indices.shape() != updates.shape() || indices.ndim() != data.ndim())
    fail(call, "indices " + str(indices.shape()) + " and updates " + str(updates.shape()) + " must have one shape of data's rank " + str(data.shape()));
  for (size_t d = 0; d < data.ndim(); ++d)
    if (indices.dim(d) > data.dim(d)) fail(call, "indices of shape " + str(indices.shape()) + " exceed data of shape " + str(data.shape()));
  if (updates.dtype() != data.dtype()) fail(call, "updates and data have different dtypes");
  NDArray out = data.copy();
  const auto idx = int_values(indices);
  const auto own = contiguous_strides(data.shape());
  const int64_t dim = data.dim(axis);
  std::vector<int64_t> pos(indices.ndim(), 0);
  dispatch_dtype(data.dtype(), [&]<class T>(TypeTag<T>) {
    T* d = out.data<T>();
    const T* u = updates.data<T>();
    for (size_t i = 0; i < idx.size(); ++i) {
      int64_t k = idx[i] < 0 ? idx[i] + dim : idx[i];
      if (k < 0 || k >= dim) out_of_range(call, idx[i], dim, data, indices);
      int64_t off = 0;
      for (size_t a = 0; a < pos.size(); ++a) off += (a == axis ? k : pos[a]) * own[a];
      reduce_into(d[off], u[i], mode);
      for (size_t a = pos.size(); a-- > 0;) {
        if (++pos[a] < indices.dim(a)) break;
        pos[a] = 0;
      }
    }
  });
  return out;
}

// scatter_nd: out = data; for each position y of indices (M, Y...), the block
// out[indices[:, y], ...] is updated from updates[y, ...] (later positions win for "update").
Value scatter_nd_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0), indices = call.tensor(1), updates = call.tensor(2);
  require_integer(call, indices, "indices");
  const std::string name = call.attrs.get_string("mode");
  const int mode = reduction_mode(call, name);
  if (mode == 3) fail(call, "unknown mode \"mean\" (update, add, mul, min or max)");
  const int64_t m = index_depth(call, indices, data.ndim());
  Shape expected(indices.shape().begin() + 1, indices.shape().end());
  expected.insert(expected.end(), data.shape().begin() + m, data.shape().end());
  if (updates.shape() != expected) fail(call, "updates must have shape " + str(expected) + ", found " + str(updates.shape()));
  if (updates.dtype() != data.dtype()) fail(call, "updates and data have different dtypes");
  NDArray out = data.copy();
  const auto idx = int_values(indices);
  const auto own = contiguous_strides(data.shape());
  const int64_t positions = product(indices.shape(), 1, indices.ndim());
  const int64_t chunk = product(data.shape(), m, data.ndim());
  dispatch_dtype(data.dtype(), [&]<class T>(TypeTag<T>) {
    T* d = out.data<T>();
    const T* u = updates.data<T>();
    for (int64_t q = 0; q < positions; ++q) {
      int64_t off = 0;
      for (int64_t j = 0; j < m; ++j) off += checked(call, idx[j * positions + q], data.dim(j), data, indices) * own[j];
      for (int64_t c = 0; c < chunk; ++c) reduce_into(d[off + c], u[q * chunk + c], mode);
    }
  });
  return out;
}

// adv_index((data, i1, ..., ik)): numpy advanced indexing of the first k dims.
Value adv_index_kernel(const KernelCall& call) {
  auto all = call.tensors(0);
  if (all.empty()) fail(call, "needs the data tensor");
  const NDArray& data = all[0];
  const size_t k = all.size() - 1;
  if (k > data.ndim()) fail(call, std::to_string(k) + " index tensors for data of shape " + str(data.shape()));
  Shape bshape;
  for (size_t i = 1; i <= k; ++i) {
    require_integer(call, all[i], "indices");
    bshape = broadcast_shapes(bshape, all[i].shape(), call.op.name);
  }
  const int64_t positions = shape_size(bshape), chunk = product(data.shape(), k, data.ndim());
  const auto own = contiguous_strides(data.shape());
  std::vector<int64_t> src(static_cast<size_t>(positions), 0);
  for (size_t i = 1; i <= k; ++i) {
    const auto vals = int_values(all[i]);
    const std::vector<int64_t> st[1] = {broadcast_strides(all[i].shape(), bshape)};
    for_each_strided(bshape, st, [&](int64_t q, const int64_t* o) {
      src[q] += checked(call, vals[o[0]], data.dim(i - 1), data, all[i]) * own[i - 1];
    });
  }
  Shape out_shape = bshape;
  out_shape.insert(out_shape.end(), data.shape().begin() + k, data.shape().end());
  NDArray out = NDArray::empty(out_shape, data.dtype());
  copy_chunks(data, out, chunk, [&](auto&& copy) {
    for (int64_t q = 0; q < positions; ++q) copy(q * chunk, src[q]);
  });
  return out;
}

Value one_hot_kernel(const KernelCall& call) {
  NDArray indices = call.tensor(0), on = call.tensor(1), off = call.tensor(2);
  require_integer(call, indices, "indices");
  const int64_t depth = call.attrs.get_int("depth", 1);
  if (depth < 0) fail(call, "`depth` must not be negative");
  const int64_t rank = static_cast<int64_t>(indices.ndim());
  int64_t axis = call.attrs.get_int("axis", -1);
  if (axis < -rank - 1 || axis > rank) fail(call, "axis " + std::to_string(axis) + " is out of range");
  if (axis < 0) axis += rank + 1;
  Shape s = indices.shape();
  s.insert(s.begin() + axis, depth);
  DataType dtype = call.attrs.get_dtype("dtype").value_or(result_dtype(call, on.dtype()));
  NDArray out = NDArray::empty(s, dtype);
  const auto idx = int_values(indices);
  const int64_t inner = product(indices.shape(), static_cast<size_t>(axis), indices.ndim());
  const int64_t outer = inner ? static_cast<int64_t>(idx.size()) / inner : 0;
  dispatch_dtype(dtype, [&]<class T>(TypeTag<T>) {
    const T on_v = cast_to<T>(on.get_double(0)), off_v = cast_to<T>(off.get_double(0));
    T* d = out.data<T>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j = 0; j < depth; ++j)
        for (int64_t i = 0; i < inner; ++i) d[(o * depth + j) * inner + i] = idx[o * inner + i] == j ? on_v : off_v;
  });
  return out;
}

// unravel_index(indices, shape): coordinates from the last dim backwards, each the running
// quotient floor-mod the dim (the first coordinate wraps too, as topi computes it).
Value unravel_index_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0), shape_t = call.tensor(1);
  require_integer(call, data, "data");
  require_integer(call, shape_t, "shape");
  const auto dims = int_values(shape_t);
  for (int64_t d : dims)
    if (d <= 0) fail(call, "`shape` " + str(dims) + " has a dim that is not positive");
  const auto idx = int_values(data);
  Shape s{static_cast<int64_t>(dims.size())};
  if (data.ndim() > 0) s.push_back(data.size());
  NDArray out = NDArray::empty(s, data.dtype());
  const int64_t n = static_cast<int64_t>(idx.size());
  for (int64_t i = 0; i < n; ++i) {
    int64_t cur = idx[i];
    for (size_t v = dims.size(); v-- > 0;) {
      const int64_t d = dims[v];
      int64_t q = cur / d, r = cur % d;
      if (r < 0) r += d, --q;
      out.set_int(static_cast<int64_t>(v) * n + i, r);
      cur = q;
    }
  }
  return out;
}

Value argwhere_kernel(const KernelCall& call) {
  NDArray cond = call.tensor(0);
  const size_t rank = cond.ndim();
  std::vector<int32_t> coords;
  std::vector<int64_t> idx(rank, 0);
  dispatch_dtype(cond.dtype(), [&]<class T>(TypeTag<T>) {
    const T* c = cond.data<T>();
    for (int64_t i = 0, n = cond.size(); i < n; ++i) {
      if (static_cast<Compute<T>>(c[i]) != 0)
        for (int64_t v : idx) coords.push_back(static_cast<int32_t>(v));
      for (size_t k = rank; k-- > 0;) {
        if (++idx[k] < cond.dim(k)) break;
        idx[k] = 0;
      }
    }
  });
  // A rank-0 condition has no coordinates to list: count its one element instead.
  int64_t rows = rank ? static_cast<int64_t>(coords.size() / rank) : 0;
  if (rank == 0 && cond.size() == 1 && cond.get_double(0) != 0) rows = 1;
  NDArray out = NDArray::empty({rows, static_cast<int64_t>(rank)}, DataType::int_(32));
  if (!coords.empty()) std::memcpy(out.raw(), coords.data(), coords.size() * sizeof(int32_t));
  return out;
}

}  // namespace

void register_transform_index_kernels(KernelTable& t) {
  register_kernel(t, "take", take_kernel);
  register_kernel(t, "gather", gather_kernel);
  register_kernel(t, "gather_nd", gather_nd_kernel);
  register_kernel(t, "scatter_elements", scatter_elements_kernel);
  register_kernel(t, "scatter_nd", scatter_nd_kernel);
  register_kernel(t, "adv_index", adv_index_kernel);
  register_kernel(t, "one_hot", one_hot_kernel);
  register_kernel(t, "unravel_index", unravel_index_kernel);
  register_kernel(t, "argwhere", argwhere_kernel);
}

}  // namespace relay::rt
