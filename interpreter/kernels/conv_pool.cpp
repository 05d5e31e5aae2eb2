// Registration of the convolution/pooling family and the helpers its files share: layouts,
// per-axis attributes and padding (reference §3.0.2, §3.0.6, §3.0.7).
#include <cstring>

#include "interpreter/kernels/conv_pool_internal.h"

namespace relay::rt {

void register_conv_pool_kernels(KernelTable& table) {
  register_conv_kernels(table);
  register_conv_transpose_kernels(table);
  register_conv_variant_kernels(table);
  register_conv_winograd_kernels(table);
  register_pool_kernels(table);
  register_pool_adaptive_kernels(table);
}

namespace convpool {

void fail(const KernelCall& call, const std::string& message) {
  throw RuntimeError("`" + std::string(call.op.name) + "`: " + message);
}

std::string spatial_letters(size_t rank) { return std::string("DHW").substr(3 - rank); }

Layout parse_layout(const KernelCall& call, const std::string& text, std::string_view attr) {
  auto l = Layout::parse(text);
  if (!l) fail(call, "`" + std::string(attr) + "` \"" + text + "\" is not a valid layout");
  return *l;
}

namespace {

int64_t factor_of(const Layout& l, char primal) {
  int s = l.sub_index_of(static_cast<char>(primal - 'A' + 'a'));
  return s < 0 ? 1 : l.axes[static_cast<size_t>(s)].factor;
}

// Copies elements of `elem` bytes: dst[i] = src[offset_i] over dst's row-major order, or
// dst[offset_i] = src[i] over src's (scatter) when `scatter`.
void strided_copy(const void* src, void* dst, size_t elem, const Shape& iter_shape,
                  const std::vector<int64_t>& other_strides, bool scatter) {
  const std::vector<int64_t> strides[1] = {other_strides};
  auto run = [&]<class U>(TypeTag<U>) {
    const U* s = static_cast<const U*>(src);
    U* d = static_cast<U*>(dst);
    for_each_strided(iter_shape, strides, [&](int64_t i, const int64_t* off) {
      if (scatter) d[off[0]] = s[i];
      else d[i] = s[off[0]];
    });
  };
  switch (elem) {
    case 1: run(TypeTag<uint8_t>{}); break;
    case 2: run(TypeTag<uint16_t>{}); break;
    case 4: run(TypeTag<uint32_t>{}); break;
    default: run(TypeTag<uint64_t>{}); break;
  }
}

}  // namespace

NDArray relayout(const KernelCall& call, const NDArray& t, const Layout& from, const Layout& to,
                 std::string_view what) {
  if (from.to_string() == to.to_string()) return t;
  if (t.ndim() != from.size())
    fail(call, std::string(what) + " has shape " + shape_to_string(t.shape()) + ", but its layout " +
                   from.to_string() + " has " + std::to_string(from.size()) + " axes");
  // Primal extents, in `from`'s primal order.
  std::string primal;
  std::vector<int64_t> extent;
  for (size_t p = 0; p < from.size(); ++p) {
    const auto& a = from.axes[p];
    if (a.factor) {
      if (t.dim(p) != a.factor)
        fail(call, std::string(what) + " has shape " + shape_to_string(t.shape()) + ", but axis " +
                       std::to_string(p) + " of layout " + from.to_string() + " must be " +
                       std::to_string(a.factor));
      continue;
    }
    primal += a.name;
    extent.push_back(t.dim(p) * factor_of(from, a.name));
  }
  const size_t elem = dtype_bytes(t.dtype());
  NDArray src = t;
  // Step 1: fold `from`'s sub-axes, giving a tensor in the primal-only layout `primal`.
  bool has_sub = primal.size() != from.size();
  if (has_sub) {
    Shape pshape(extent.begin(), extent.end());
    NDArray folded = NDArray::empty(pshape, t.dtype());
    auto pstr = contiguous_strides(pshape);
    std::vector<int64_t> coef(from.size());
    for (size_t p = 0; p < from.size(); ++p) {
      const auto& a = from.axes[p];
      char up = static_cast<char>(a.factor ? a.name - 'a' + 'A' : a.name);
      size_t q = primal.find(up);
      coef[p] = a.factor ? pstr[q] : pstr[q] * factor_of(from, a.name);
    }
    strided_copy(t.raw(), folded.raw(), elem, t.shape(), coef, /*scatter=*/true);
    src = folded;
    if (to.to_string() == primal) return folded;
  }
  // Step 2: gather into `to`, splitting its sub-axes.
  auto sstr = contiguous_strides(Shape(extent.begin(), extent.end()));
  Shape out_shape(to.size());
  std::vector<int64_t> coef(to.size());
  for (size_t p = 0; p < to.size(); ++p) {
    const auto& a = to.axes[p];
    char up = static_cast<char>(a.factor ? a.name - 'a' + 'A' : a.name);
    size_t q = primal.find(up);
    if (q == std::string::npos)
      fail(call, "layout " + to.to_string() + " does not have the axes of " + from.to_string());
    if (a.factor) {
      out_shape[p] = a.factor;
      coef[p] = sstr[q];
    } else {
      int64_t f = factor_of(to, a.name);
      if (extent[q] % f != 0)
        fail(call, std::string(what) + ": axis " + std::string(1, a.name) + " has extent " +
                       std::to_string(extent[q]) + ", which layout " + to.to_string() +
                       " cannot split by " + std::to_string(f));
      out_shape[p] = extent[q] / f;
      coef[p] = sstr[q] * f;
    }
  }
  NDArray out = NDArray::empty(out_shape, t.dtype());
  strided_copy(src.raw(), out.raw(), elem, out_shape, coef, /*scatter=*/false);
  return out;
}

std::vector<int64_t> per_axis(const KernelCall& call, std::string_view attr, size_t rank,
                              int64_t fallback) {
  if (!call.attrs.get(attr) || call.attrs.is_none(attr)) return std::vector<int64_t>(rank, fallback);
  std::vector<int64_t> v = call.attrs.get_ints(attr);
  if (v.empty()) return std::vector<int64_t>(rank, fallback);
  if (v.size() == 1 && rank > 1) v.assign(rank, v[0]);
  if (v.size() != rank)
    fail(call, "`" + std::string(attr) + "` needs " + std::to_string(rank) + " values, but has " +
                   std::to_string(v.size()));
  return v;
}

void read_padding(const KernelCall& call, size_t rank, std::vector<int64_t>& before,
                  std::vector<int64_t>& after, std::string_view attr) {
  std::vector<int64_t> p = call.attrs.get_ints(attr);
  before.assign(rank, 0);
  after.assign(rank, 0);
  if (p.empty()) return;
  if (p.size() == 1) {
    before.assign(rank, p[0]);
    after.assign(rank, p[0]);
  } else if (p.size() == rank) {
    before = p;
    after = p;
  } else if (p.size() == 2 * rank) {
    before.assign(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(rank));
    after.assign(p.begin() + static_cast<std::ptrdiff_t>(rank), p.end());
  } else {
    fail(call, "`" + std::string(attr) + "` has " + std::to_string(p.size()) +
                   " values; it needs 1, " + std::to_string(rank) + " or " +
                   std::to_string(2 * rank));
  }
}

void set_axes(Geom& g, size_t rank, const std::vector<int64_t>& in, const std::vector<int64_t>& k,
              const std::vector<int64_t>& stride, const std::vector<int64_t>& dil,
              const std::vector<int64_t>& pad_before) {
  for (size_t i = 0; i < rank; ++i) {
    size_t a = 3 - rank + i;
    g.in[a] = in[i];
    g.k[a] = k[i];
    g.stride[a] = stride[i];
    g.dil[a] = dil[i];
    g.pad[a] = pad_before[i];
  }
}

AccKind acc_kind(DataType out) {
  if (out.code == DataType::Float && out.bits == 64) return AccKind::F64;
  if (out.code == DataType::Float || out.code == DataType::BFloat) return AccKind::F32;
  return AccKind::I64;
}

}  // namespace convpool
}  // namespace relay::rt
