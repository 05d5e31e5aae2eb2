// Reshaping, joining and splitting: expand_dims, squeeze, reshape (and its reverse and
// _like forms), transpose, concatenate, stack, split, meshgrid, repeat, reverse, where.
// Ops that only change the shape return a view of the input's storage: values are never
// written after a kernel returns, so sharing is safe and costs nothing.
#include <algorithm>

#include "interpreter/kernels/transform_internal.h"

namespace relay::rt {
namespace {

using namespace transform;

NDArray view(const KernelCall& call, const NDArray& data, const Shape& shape) {
  if (shape_size(shape) != data.size())
    fail(call, "cannot reshape data of shape " + str(data.shape()) + " (" + std::to_string(data.size()) +
                   " elements) into " + str(shape) + " (" + std::to_string(shape_size(shape)) + " elements)");
  return data.reshaped(shape);
}

Value expand_dims_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  const int64_t rank = static_cast<int64_t>(data.ndim());
  int64_t axis = call.attrs.get_int("axis"), count = call.attrs.get_int("num_newaxis", 1);
  if (axis < -rank - 1 || axis > rank) fail(call, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  if (count < 0) fail(call, "`num_newaxis` must not be negative");
  if (axis < 0) axis += rank + 1;
  Shape s = data.shape();
  s.insert(s.begin() + axis, static_cast<size_t>(count), 1);
  return data.reshaped(s);
}

Value squeeze_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  const Shape& in = data.shape();
  std::vector<bool> drop(in.size(), false);
  if (call.attrs.is_none("axis")) {
    for (size_t i = 0; i < in.size(); ++i) drop[i] = in[i] == 1;
  } else {
    for (int64_t a : call.attrs.get_ints("axis")) {
      int64_t ax = normalize_axis(a, in.size(), call.op.name);
      if (in[ax] != 1) fail(call, "axis " + std::to_string(a) + " has size " + std::to_string(in[ax]) + " in data of shape " + str(in) + ", not 1");
      drop[ax] = true;
    }
  }
  Shape s;
  for (size_t i = 0; i < in.size(); ++i)
    if (!drop[i]) s.push_back(in[i]);
  return data.reshaped(s);
}

// TVM's InferNewShape (reference §3.0.4) on concrete dims; `reverse` runs it right to left
// (contrib_reverse_reshape).
Shape new_shape(const KernelCall& call, Shape in, std::vector<int64_t> spec, bool reverse) {
  const bool allowzero = call.attrs.get_bool("allowzero", false);
  if (reverse) {
    std::reverse(in.begin(), in.end());
    std::reverse(spec.begin(), spec.end());
  }
  Shape out;
  std::vector<bool> copied;  // whether out[i] came from 0/-2/-3/-4
  std::vector<bool> consumed(in.size(), false);
  size_t src = 0;
  int64_t infer = -1;
  auto need = [&](size_t k, int64_t code) {
    if (src + k > in.size())
      fail(call, "`newshape` value " + std::to_string(code) + " refers past the input's " + std::to_string(in.size()) + " dims");
  };
  for (size_t i = 0; i < spec.size(); ++i) {
    const int64_t v = spec[i];
    if (v > 0) {
      out.push_back(v), copied.push_back(false), ++src;
    } else if (v == 0) {
      if (allowzero) {
        out.push_back(0), copied.push_back(false), ++src;
      } else {
        need(1, v);
        consumed[src] = true;
        out.push_back(in[src++]), copied.push_back(true);
      }
    } else if (v == -1) {
      if (infer >= 0) fail(call, "`newshape` has more than one -1");
      infer = static_cast<int64_t>(out.size());
      out.push_back(1), copied.push_back(false), ++src;
    } else if (v == -2) {
      while (src < in.size()) consumed[src] = true, out.push_back(in[src++]), copied.push_back(true);
    } else if (v == -3) {
      need(2, v);
      consumed[src] = consumed[src + 1] = true;
      out.push_back(in[src] * in[src + 1]), copied.push_back(true);
      src += 2;
    } else if (v == -4) {
      if (i + 2 >= spec.size()) fail(call, "-4 in `newshape` must be followed by two values");
      need(1, v);
      int64_t a = spec[i + 1], b = spec[i + 2], d = in[src];
      i += 2;
      if (a == -1 && b == -1) fail(call, "-4 cannot split into two -1 dims");
      if (a == -1) a = b ? d / b : 0;
      if (b == -1) b = a ? d / a : 0;
      int64_t ab = 0;  // a and b may come from data (dyn.reshape): multiply checked
      if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &ab) || ab != d)
        fail(call, "-4 cannot split dim " + std::to_string(d) + " into " + std::to_string(spec[i - 1]) + " and " + std::to_string(spec[i]));
      consumed[src++] = true;
      out.push_back(a), copied.push_back(true);
      out.push_back(b), copied.push_back(true);
    } else {
      fail(call, "unsupported special value " + std::to_string(v) + " in `newshape`");
    }
  }
  if (infer >= 0) {
    int64_t num = 1, den = 1;
    for (size_t i = 0; i < in.size(); ++i)
      if (!consumed[i]) num *= in[i];
    for (size_t i = 0; i < out.size(); ++i)
      if (!copied[i] && static_cast<int64_t>(i) != infer && __builtin_mul_overflow(den, out[i], &den)) den = 0;
    if (den == 0 || num % den != 0)
      fail(call, "cannot infer the -1 dim of `newshape` for data of shape " + str(reverse ? Shape(in.rbegin(), in.rend()) : in));
    out[infer] = num / den;
  }
  if (reverse) std::reverse(out.begin(), out.end());
  return out;
}

template <bool Reverse> Value reshape_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  return view(call, data, new_shape(call, data.shape(), call.attrs.get_ints("newshape"), Reverse));
}

// A [begin, end) dim range from attributes (None end = rank, negatives wrap).
std::pair<size_t, size_t> dim_range(const KernelCall& call, size_t rank, const char* b, const char* e) {
  const int64_t r = static_cast<int64_t>(rank);
  int64_t lo = call.attrs.get_int(b, 0);
  int64_t hi = call.attrs.get_opt_int(e).value_or(r);
  if (lo < 0) lo += r;
  if (hi < 0) hi += r;
  if (lo < 0 || hi > r || lo > hi)
    fail(call, "`" + std::string(b) + "`/`" + std::string(e) + "` give an invalid range for rank " + std::to_string(rank));
  return {static_cast<size_t>(lo), static_cast<size_t>(hi)};
}

Value reshape_like_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0), like = call.tensor(1);
  auto [lb, le] = dim_range(call, data.ndim(), "lhs_begin", "lhs_end");
  auto [rb, re] = dim_range(call, like.ndim(), "rhs_begin", "rhs_end");
  Shape s(data.shape().begin(), data.shape().begin() + lb);
  s.insert(s.end(), like.shape().begin() + rb, like.shape().begin() + re);
  s.insert(s.end(), data.shape().begin() + le, data.shape().end());
  return view(call, data, s);
}

Value transpose_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  const size_t rank = data.ndim();
  std::vector<int64_t> axes = call.attrs.get_ints("axes");
  if (axes.empty()) {
    for (size_t i = rank; i-- > 0;) axes.push_back(static_cast<int64_t>(i));
  }
  if (axes.size() != rank) fail(call, "`axes` has " + std::to_string(axes.size()) + " entries for data of rank " + std::to_string(rank));
  const auto own = contiguous_strides(data.shape());
  std::vector<bool> seen(rank, false);
  Shape s(rank);
  std::vector<int64_t> strides(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = normalize_axis(axes[i], rank, call.op.name);
    if (seen[a]) fail(call, "`axes` repeats axis " + std::to_string(a));
    seen[a] = true;
    s[i] = data.dim(a);
    strides[i] = own[a];
  }
  return call.finish(strided_copy(data, s, strides, 0, &call));
}

// Joins `parts` along `axis`; each part contributes its extent there (1 for stack, whose
// parts are viewed with a new unit dim).
NDArray join(const KernelCall& call, const std::vector<NDArray>& parts, size_t axis) {
  if (parts.empty()) fail(call, "needs at least one tensor");
  const NDArray& first = parts[0];
  Shape out = first.shape();
  out[axis] = 0;
  for (const NDArray& p : parts) {
    if (p.ndim() != first.ndim() || p.dtype() != first.dtype())
      fail(call, "tensors of shape " + str(first.shape()) + " and " + str(p.shape()) + " (or dtypes) do not agree");
    for (size_t d = 0; d < out.size(); ++d)
      if (d != axis && p.dim(d) != first.dim(d))
        fail(call, "shapes " + str(first.shape()) + " and " + str(p.shape()) + " differ in dim " + std::to_string(d));
    out[axis] += p.dim(axis);
  }
  NDArray result = call.output(out, first.dtype());  // every byte is written
  const size_t esize = dtype_bytes(first.dtype());
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= out[d];
  for (size_t d = axis + 1; d < out.size(); ++d) inner *= out[d];
  const size_t row = static_cast<size_t>(out[axis] * inner) * esize;
  auto* dst = static_cast<unsigned char*>(result.raw());
  size_t at = 0;
  for (const NDArray& p : parts) {
    const size_t chunk = static_cast<size_t>(p.dim(axis) * inner) * esize;
    const auto* src = static_cast<const unsigned char*>(p.raw());
    if (chunk)
      for (int64_t o = 0; o < outer; ++o) std::memcpy(dst + o * row + at, src + o * chunk, chunk);
    at += chunk;
  }
  return result;
}

Value concatenate_kernel(const KernelCall& call) {
  auto parts = call.tensors(0);
  if (parts.empty()) fail(call, "needs at least one tensor");
  return call.finish(join(call, parts, axis_attr(call, "axis", parts[0].ndim())));
}

Value stack_kernel(const KernelCall& call) {
  auto parts = call.tensors(0);
  if (parts.empty()) fail(call, "needs at least one tensor");
  const int64_t rank = static_cast<int64_t>(parts[0].ndim());
  int64_t axis = call.attrs.get_int("axis", 0);
  if (axis < -rank - 1 || axis > rank) fail(call, "axis " + std::to_string(axis) + " is out of range");
  if (axis < 0) axis += rank + 1;
  for (NDArray& p : parts) {
    Shape s = p.shape();
    if (static_cast<int64_t>(s.size()) != rank) fail(call, "tensors of different ranks");
    s.insert(s.begin() + axis, 1);
    p = p.reshaped(s);
  }
  return call.finish(join(call, parts, static_cast<size_t>(axis)));
}

// Copies data[..., lo:hi, ...] along `axis`.
NDArray axis_slice(const NDArray& data, size_t axis, int64_t lo, int64_t hi) {
  Shape s = data.shape();
  s[axis] = hi - lo;
  NDArray out = NDArray::empty(s, data.dtype());
  const size_t esize = dtype_bytes(data.dtype());
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= s[d];
  for (size_t d = axis + 1; d < s.size(); ++d) inner *= s[d];
  const size_t chunk = static_cast<size_t>((hi - lo) * inner) * esize;
  const size_t row = static_cast<size_t>(data.dim(axis) * inner) * esize;
  const auto* src = static_cast<const unsigned char*>(data.raw()) + static_cast<size_t>(lo * inner) * esize;
  auto* dst = static_cast<unsigned char*>(out.raw());
  if (chunk)
    for (int64_t o = 0; o < outer; ++o) std::memcpy(dst + o * chunk, src + o * row, chunk);
  return out;
}

Value split_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  const size_t axis = static_cast<size_t>(axis_attr(call, "axis", data.ndim()));
  const int64_t dim = data.dim(axis);
  const AttrVal* ios = call.attrs.get("indices_or_sections");
  std::vector<int64_t> points;
  if (ios && ios->kind == AttrVal::Kind::Int) {
    const int64_t n = ios->int_value;
    if (n <= 0 || dim % n != 0)
      fail(call, "cannot split dim " + std::to_string(axis) + " of size " + std::to_string(dim) + " into " + std::to_string(n) + " equal sections");
    for (int64_t k = 1; k < n; ++k) points.push_back(k * (dim / n));
  } else {
    points = call.attrs.get_ints("indices_or_sections");
  }
  std::vector<Value> parts;
  int64_t lo = 0;
  for (size_t k = 0; k <= points.size(); ++k) {
    // Like numpy (and TVM's strided slices), points past the dim clamp and a point before
    // the previous one gives an empty part.
    int64_t hi = k < points.size() ? std::clamp<int64_t>(points[k], 0, dim) : dim;
    hi = std::max(hi, lo);
    parts.push_back(axis_slice(data, axis, lo, hi));
    lo = hi;
  }
  return make_tuple(std::move(parts));
}

Value meshgrid_kernel(const KernelCall& call) {
  auto inputs = call.tensors(0);
  const bool xy = call.attrs.get_string("indexing") == "xy";
  Shape grid;
  for (const NDArray& t : inputs) {
    if (t.ndim() > 1) fail(call, "inputs must be scalars or vectors, found shape " + str(t.shape()));
    grid.push_back(t.size());
  }
  if (xy && grid.size() >= 2) std::swap(grid[0], grid[1]);
  std::vector<Value> out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    size_t pos = xy && i < 2 && inputs.size() >= 2 ? 1 - i : i;
    std::vector<int64_t> strides(grid.size(), 0);
    strides[pos] = 1;
    out.push_back(strided_copy(inputs[i], grid, strides));
  }
  return make_tuple(std::move(out));
}

Value repeat_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  const int64_t repeats = call.attrs.get_int("repeats");
  if (repeats < 0) fail(call, "`repeats` must not be negative, found " + std::to_string(repeats));
  const size_t axis = static_cast<size_t>(axis_attr(call, "axis", data.ndim()));
  Shape s = data.shape();
  s[axis] *= repeats;
  NDArray out = NDArray::empty(s, data.dtype());
  const size_t esize = dtype_bytes(data.dtype());
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= s[d];
  for (size_t d = axis + 1; d < s.size(); ++d) inner *= s[d];
  const size_t chunk = static_cast<size_t>(inner) * esize;
  const auto* src = static_cast<const unsigned char*>(data.raw());
  auto* dst = static_cast<unsigned char*>(out.raw());
  if (chunk)
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j = 0; j < data.dim(axis); ++j, src += chunk)
        for (int64_t r = 0; r < repeats; ++r, dst += chunk) std::memcpy(dst, src, chunk);
  return out;
}

Value reverse_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  auto strides = contiguous_strides(data.shape());
  std::vector<bool> flip(data.ndim(), call.attrs.is_none("axis"));
  if (!call.attrs.is_none("axis")) flip[axis_attr(call, "axis", data.ndim())] = true;
  int64_t offset = 0;
  for (size_t d = 0; d < data.ndim(); ++d)
    if (flip[d] && data.dim(d) > 0) {
      offset += (data.dim(d) - 1) * strides[d];
      strides[d] = -strides[d];
    }
  return strided_copy(data, data.shape(), strides, data.size() ? offset : 0);
}

Value where_kernel(const KernelCall& call) {
  NDArray cond = call.tensor(0), x = call.tensor(1), y = call.tensor(2);
  if (x.dtype() != y.dtype()) fail(call, "x and y have different dtypes");
  Shape s = broadcast_shapes(cond.shape(), broadcast_shapes(x.shape(), y.shape(), call.op.name), call.op.name);
  NDArray out = NDArray::empty(s, x.dtype());
  const std::vector<int64_t> st[3] = {broadcast_strides(cond.shape(), s), broadcast_strides(x.shape(), s),
                                      broadcast_strides(y.shape(), s)};
  dispatch_dtype(cond.dtype(), [&]<class C>(TypeTag<C>) {
    dispatch_width(x.dtype(), [&]<class W>(TypeTag<W>) {
      const C* c = cond.data<C>();
      const W *a = x.data<W>(), *b = y.data<W>();
      W* d = out.data<W>();
      for_each_strided(s, st, [&](int64_t i, const int64_t* o) {
        d[i] = static_cast<Compute<C>>(c[o[0]]) != 0 ? a[o[1]] : b[o[2]];
      });
    });
  });
  return out;
}

}  // namespace

void register_transform_shape_kernels(KernelTable& t) {
  register_kernel(t, "expand_dims", expand_dims_kernel);
  register_kernel(t, "squeeze", squeeze_kernel);
  register_kernel(t, "reshape", reshape_kernel<false>);
  register_kernel(t, "contrib_reverse_reshape", reshape_kernel<true>);
  register_kernel(t, "reshape_like", reshape_like_kernel);
  register_destination_kernel(t, "transpose", transpose_kernel);
  register_destination_kernel(t, "concatenate", concatenate_kernel);
  register_destination_kernel(t, "stack", stack_kernel);
  register_kernel(t, "split", split_kernel);
  register_kernel(t, "meshgrid", meshgrid_kernel);
  register_kernel(t, "repeat", repeat_kernel);
  register_kernel(t, "reverse", reverse_kernel);
  register_kernel(t, "where", where_kernel);
}

}  // namespace relay::rt
