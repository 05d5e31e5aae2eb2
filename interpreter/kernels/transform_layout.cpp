// Layout transforms (layout_transform, auto_scheduler_layout_transform,
// meta_schedule_layout_transform) and broadcasting: broadcast_to(_like), collapse_sum_*,
// tile.
#include <cctype>

#include "interpreter/kernels/reduction_internal.h"
#include "interpreter/kernels/transform_internal.h"

namespace relay::rt {
namespace {

using namespace transform;

// A layout (§3.0.2): upper-case letters are primal axes, "<n><lower>" a sub-axis of size n.
struct LayoutAxis {
  char primal;     // upper-case name of the primal axis this one belongs to
  int64_t factor;  // 0 for the primal axis itself
};

std::vector<LayoutAxis> parse_layout(const KernelCall& call, const std::string& text) {
  std::vector<LayoutAxis> axes;
  for (size_t i = 0; i < text.size();) {
    int64_t factor = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && factor < (int64_t{1} << 40))
      factor = factor * 10 + (text[i++] - '0');
    if (i == text.size()) fail(call, "\"" + text + "\" is not a valid layout");
    const char c = text[i++];
    const bool upper = std::isupper(static_cast<unsigned char>(c)), lower = std::islower(static_cast<unsigned char>(c));
    if ((factor == 0) != upper || !(upper || lower)) fail(call, "\"" + text + "\" is not a valid layout");
    axes.push_back({static_cast<char>(std::toupper(static_cast<unsigned char>(c))), factor});
  }
  return axes;
}

Value layout_transform_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  const std::string src_text = call.attrs.get_string("src_layout"), dst_text = call.attrs.get_string("dst_layout");
  auto src = parse_layout(call, src_text), dst = parse_layout(call, dst_text);
  if (src.size() != data.ndim())
    fail(call, "src_layout \"" + src_text + "\" does not match data of shape " + str(data.shape()));
  // Per primal axis: its position and sub-axis (position, factor) in each layout.
  struct Primal {
    int src = -1, src_sub = -1, dst = -1, dst_sub = -1;
    int64_t src_f = 1, dst_f = 1, extent = 1;
  };
  Primal p[26];
  for (size_t i = 0; i < src.size(); ++i) {
    Primal& q = p[src[i].primal - 'A'];
    if (src[i].factor) q.src_sub = static_cast<int>(i), q.src_f = src[i].factor;
    else q.src = static_cast<int>(i);
  }
  for (size_t i = 0; i < dst.size(); ++i) {
    Primal& q = p[dst[i].primal - 'A'];
    if (dst[i].factor) q.dst_sub = static_cast<int>(i), q.dst_f = dst[i].factor;
    else q.dst = static_cast<int>(i);
  }
  Shape out(dst.size());
  for (auto& q : p) {
    if ((q.src < 0) != (q.dst < 0) || (q.src < 0 && (q.src_sub >= 0 || q.dst_sub >= 0)))
      fail(call, "cannot convert from \"" + src_text + "\" to \"" + dst_text + "\": the layouts must name the same primal axes");
    if (q.src < 0) continue;
    q.extent = data.dim(q.src) * (q.src_sub >= 0 ? data.dim(q.src_sub) : 1);
    out[q.dst] = q.extent / q.dst_f;
    if (q.dst_sub >= 0) out[q.dst_sub] = q.dst_f;
  }
  NDArray result = call.output(out, data.dtype());  // every element is written
  if (result.size() == 0) return call.finish(result);
  const auto in_strides = contiguous_strides(data.shape());
  // Walk the output in order; each primal coordinate is outer * dst_f + inner.
  std::vector<int64_t> idx(out.size(), 0);
  dispatch_width(data.dtype(), [&]<class W>(TypeTag<W>) {
    const W* s = data.data<W>();
    W* d = result.data<W>();
    for (int64_t i = 0, n = result.size(); i < n; ++i) {
      int64_t off = 0;
      bool inside = true;
      for (const auto& q : p) {
        if (q.src < 0) continue;
        int64_t coord = idx[q.dst] * q.dst_f + (q.dst_sub >= 0 ? idx[q.dst_sub] : 0);
        if (coord >= q.extent) {
          inside = false;
          break;
        }
        off += (coord / q.src_f) * in_strides[q.src];
        if (q.src_sub >= 0) off += (coord % q.src_f) * in_strides[q.src_sub];
      }
      // Coordinates past the source extent (a padded split) read as zero, as topi does.
      d[i] = inside ? s[off] : W{0};
      for (size_t k = out.size(); k-- > 0;) {
        if (++idx[k] < out[k]) break;
        idx[k] = 0;
      }
    }
  });
  return call.finish(result);
}

// The auto-scheduler's layouts: sizes each followed by an axis name ("16n4c2n").
void parse_sized_layout(const KernelCall& call, const std::string& text, Shape& sizes, std::vector<std::string>& names) {
  for (size_t i = 0; i < text.size();) {
    int64_t size = 0;
    size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && size < (int64_t{1} << 40))
      size = size * 10 + (text[i++] - '0');
    size_t name = i;
    while (i < text.size() && (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
    if (start == name || name == i || size == 0)
      fail(call, "\"" + text + "\" is not an auto-scheduler layout (sizes each followed by an axis name)");
    sizes.push_back(size);
    names.push_back(text.substr(name, i - name));
  }
}

// Each source axis is the mixed-radix number formed by the destination axes of its name, in
// their order.
Value auto_scheduler_layout_transform_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  Shape src_sizes, dst_sizes;
  std::vector<std::string> src_names, dst_names;
  parse_sized_layout(call, call.attrs.get_string("src_layout"), src_sizes, src_names);
  parse_sized_layout(call, call.attrs.get_string("dst_layout"), dst_sizes, dst_names);
  if (src_names.size() != data.ndim())
    fail(call, "src_layout names " + std::to_string(src_names.size()) + " axes but data has shape " + str(data.shape()));
  NDArray result = NDArray::empty(dst_sizes, data.dtype());
  const auto in_strides = contiguous_strides(data.shape());
  std::vector<int64_t> src_of(dst_names.size(), -1);
  for (size_t j = 0; j < dst_names.size(); ++j)
    for (size_t k = 0; k < src_names.size(); ++k)
      if (dst_names[j] == src_names[k]) src_of[j] = static_cast<int64_t>(k);
  if (result.size() == 0) return result;
  std::vector<int64_t> idx(dst_sizes.size(), 0), coord(src_names.size());
  dispatch_width(data.dtype(), [&]<class W>(TypeTag<W>) {
    const W* s = data.data<W>();
    W* d = result.data<W>();
    for (int64_t i = 0, n = result.size(); i < n; ++i) {
      std::fill(coord.begin(), coord.end(), 0);
      for (size_t j = 0; j < idx.size(); ++j)
        if (src_of[j] >= 0) coord[src_of[j]] = coord[src_of[j]] * dst_sizes[j] + idx[j];
      int64_t off = 0;
      for (size_t k = 0; k < coord.size(); ++k) {
        if (coord[k] >= data.dim(k))
          fail(call, "dst_layout \"" + call.attrs.get_string("dst_layout") + "\" addresses index " + std::to_string(coord[k]) +
                         " of axis " + src_names[k] + " in data of shape " + str(data.shape()));
        off += coord[k] * in_strides[k];
      }
      d[i] = s[off];
      for (size_t k = idx.size(); k-- > 0;) {
        if (++idx[k] < dst_sizes[k]) break;
        idx[k] = 0;
      }
    }
  });
  return result;
}

Value meta_schedule_layout_transform_kernel(const KernelCall& call) {
  fail(call, "the IndexMap in `index_map` cannot be evaluated by the interpreter");
}

NDArray broadcast(const KernelCall& call, const NDArray& data, const Shape& to) {
  Shape s = broadcast_shapes(data.shape(), to, call.op.name);
  if (s != to) fail(call, "data of shape " + str(data.shape()) + " does not broadcast to " + str(to));
  return strided_copy(data, to, broadcast_strides(data.shape(), to));
}

Value broadcast_to_kernel(const KernelCall& call) { return broadcast(call, call.tensor(0), call.attrs.get_ints("shape")); }
Value broadcast_to_like_kernel(const KernelCall& call) { return broadcast(call, call.tensor(0), call.tensor(1).shape()); }

// Sums data over its collapsed_axes (kernel_util.h) for `to`. TVM's topi::collapse_sum
// is a `sum` over those axes (in the dtype, each output in row-major order), so this is
// the `sum` kernel's fold, reshaped to `to`.
NDArray collapse_sum(const KernelCall& call, const NDArray& data, const Shape& to) {
  if (broadcast_shapes(to, data.shape(), call.op.name) != data.shape())
    fail(call, "shape " + str(to) + " does not broadcast to data of shape " + str(data.shape()));
  return sum_over(data, reduce_spec_of(collapsed_axes(data.shape(), to), data.shape(), false)).reshaped(to);
}

Value collapse_sum_like_kernel(const KernelCall& call) { return collapse_sum(call, call.tensor(0), call.tensor(1).shape()); }

Value collapse_sum_to_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  Shape to = call.attrs.is_none("shape") ? int_values(call.tensor(1)) : call.attrs.get_ints("shape");
  return collapse_sum(call, data, to);
}

Value tile_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  std::vector<int64_t> reps = call.attrs.get_ints("reps");
  for (int64_t r : reps)
    if (r < 0) fail(call, "`reps` must not be negative");
  Shape in = data.shape();
  const size_t rank = std::max(in.size(), reps.size());
  in.insert(in.begin(), rank - in.size(), 1);
  reps.insert(reps.begin(), rank - reps.size(), 1);
  // View the output as (r0, d0, r1, d1, ...): the input is broadcast along the r dims.
  Shape wide, out;
  std::vector<int64_t> strides;
  const auto own = contiguous_strides(in);
  for (size_t i = 0; i < rank; ++i) {
    wide.push_back(reps[i]), strides.push_back(0);
    wide.push_back(in[i]), strides.push_back(own[i]);
    int64_t n;  // reps come from attributes or (dyn.tile) from data: check the product
    if (__builtin_mul_overflow(in[i], reps[i], &n)) fail(call, "`reps` make a dimension that does not fit in 64 bits");
    out.push_back(n);
  }
  return strided_copy(data, wide, strides).reshaped(out);
}

}  // namespace

void register_transform_layout_kernels(KernelTable& t) {
  register_destination_kernel(t, "layout_transform", layout_transform_kernel);
  register_kernel(t, "auto_scheduler_layout_transform", auto_scheduler_layout_transform_kernel);
  register_kernel(t, "meta_schedule_layout_transform", meta_schedule_layout_transform_kernel);
  register_kernel(t, "broadcast_to", broadcast_to_kernel);
  register_kernel(t, "broadcast_to_like", broadcast_to_like_kernel);
  register_kernel(t, "collapse_sum_like", collapse_sum_like_kernel);
  register_kernel(t, "collapse_sum_to", collapse_sum_to_kernel);
  register_kernel(t, "tile", tile_kernel);
}

}  // namespace relay::rt
