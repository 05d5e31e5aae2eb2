// image.resize1d/2d/3d as takes and weighted sums, so that a resize (an FPN's or a
// segmentation head's upsampling) fuses into one native index kernel with what surrounds
// it. The samples each output coordinate reads and their weights do not depend on the
// data: the reference kernel's own plan computes them here (rt::resize_taps), and the
// sum is built in its order of float32 operations (acc = 0; acc += inner * weight per
// tap, the last spatial axis innermost), so results equal the reference bit for bit.
// What the plan cannot express (points outside the image reading the extrapolation value,
// resize3d's cubic_exclude quirk), integer data and shapes that are not constant keep the
// call.
#include "compiler/graph/passes.h"
#include "compiler/graph/rebuild.h"
#include "compiler/graph/rewrite_util.h"
#include "interpreter/kernels/image_resize.h"

namespace relay::compiler {

namespace {

const DataType kF32 = DataType::float_(32);

struct ResizeBuild {
  GraphBuilder& b;
  const std::vector<rt::ResizeAxisTaps>& axes;
  int64_t ndim;
  Span s;

  // The sum over the taps of axes [level, S) of `v` (whose axes before `level` are taken).
  NodeId sample(size_t level, NodeId v) const {
    if (level == axes.size()) return v;
    const rt::ResizeAxisTaps& a = axes[level];
    const auto out = static_cast<int64_t>(a.index.size() / static_cast<size_t>(a.count));
    NodeId acc = scalar_of(b, kF32, 0.0, s);
    for (int k = 0; k < a.count; ++k) {
      // the k-th tap of every output coordinate: its index and weight columns
      rt::NDArray indices = rt::NDArray::empty({out}, DataType::int_(64)), weights = rt::NDArray::empty({out}, kF32);
      for (int64_t o = 0; o < out; ++o) {
        const auto at = static_cast<size_t>(o * a.count + k);
        indices.set_int(o, a.index[at]);
        weights.set_double(o, a.weight[at]);
      }
      const NodeId taken = b.call("take", {{"axis", attr_int(static_cast<int64_t>(a.axis))}, {"mode", attr_string("clip")}},
                                  {v, b.constant(indices, s)}, s);
      const NodeId weight = expand_to_axis(b, b.constant(weights, s), static_cast<int64_t>(a.axis), ndim, s);
      const NodeId product = b.call("multiply", {}, {sample(level + 1, taken), weight}, s);
      acc = b.call("add", {}, {acc, product}, s);
    }
    return acc;
  }
};

NodeId resize(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in, std::string_view letters) {
  const auto shape = concrete_shape(b.type_of(in[0]));
  const auto out_shape = concrete_shape(n.type);
  if (in.size() != 1 || !shape || !out_shape) return b.copy(n, in);
  const DataType dtype = dtype_of(b, in[0]), out_dtype = ty_as<TensorTy>(n.type)->dtype;
  if (!dtype.is_float() || !out_dtype.is_float()) return b.copy(n, in);
  std::optional<std::vector<rt::ResizeAxisTaps>> axes;
  try {
    axes = rt::resize_taps(n.op->name, *shape, letters, n.attrs.get_ints("size"), rt::resize_spec_from_attrs(n.attrs));
  } catch (const rt::RuntimeError&) {
    return b.copy(n, in);  // the reference kernel's error stands
  }
  if (!axes) return b.copy(n, in);
  for (const rt::ResizeAxisTaps& a : *axes)
    if (a.index.empty()) return b.copy(n, in);  // an empty output axis: nothing to read
  const ResizeBuild build{b, *axes, static_cast<int64_t>(shape->size()), n.span};
  return cast_to(b, build.sample(0, cast_to(b, in[0], kF32, n.span)), out_dtype, n.span);
}

}  // namespace

Graph resize_as_takes(const Graph& g) {
  return rebuild(g, [](GraphBuilder& b, const Node& n, std::vector<NodeId> in) {
    if (n.kind != NodeKind::Call) return b.copy(n, std::move(in));
    const std::string_view op = n.op->name;
    if (op == "image.resize1d") return resize(b, n, in, "W");
    if (op == "image.resize2d") return resize(b, n, in, "HW");
    if (op == "image.resize3d") return resize(b, n, in, "DHW");
    return b.copy(n, std::move(in));
  });
}

}  // namespace relay::compiler
