// 1-D convolutions and pools as 2-D ones over a unit height. The compiled code's
// convolution library calls (oneDNN, compiler/dnnl) and pool kernels (loops/injective.h)
// take 2-D windows; a 1-D one ran its reference kernel (im2col + OpenBLAS for a
// convolution). The data gains a unit axis (NCW -> NC1W, NWC -> N1WC), the weight too
// (OIW -> OI1W, WIO -> 1WIO), the window's attributes a unit first entry, and the result
// loses the axis again: the same sums over the same taps. 8 x 128 x 1024 float32 through a
// 5-wide 128-channel convolution: 9.9 -> 6.9 ms a call (2 threads).
#include <optional>

#include "compiler/graph/passes.h"
#include "compiler/graph/rebuild.h"

namespace relay::compiler {

namespace {

// The unit axis of a 1-D layout's 2-D form, that form's name, and whether it is a
// weight's layout (OIW, WIO) rather than data's (NCW, NWC).
struct Lifted {
  int64_t axis;
  const char* layout;
  bool weight;
};
std::optional<Lifted> lift_layout(const std::string& layout) {
  if (layout == "NCW") return Lifted{2, "NCHW", false};
  if (layout == "NWC") return Lifted{1, "NHWC", false};
  if (layout == "OIW") return Lifted{2, "OIHW", true};
  if (layout == "WIO") return Lifted{0, "HWIO", true};
  return std::nullopt;
}

// A 1-D window's padding (one value for both ends, or before and after) as the 2-D
// [top, left, bottom, right] with no padding along the unit axis; nullopt otherwise.
std::optional<std::vector<int64_t>> lift_padding(const std::vector<int64_t>& p) {
  if (p.size() == 1) return std::vector<int64_t>{0, p[0], 0, p[0]};
  if (p.size() == 2) return std::vector<int64_t>{0, p[0], 0, p[1]};
  return std::nullopt;
}

// [1, v] for a one-entry attribute; nullopt otherwise.
std::optional<std::vector<int64_t>> lift_one(const std::vector<int64_t>& v) {
  if (v.size() != 1) return std::nullopt;
  return std::vector<int64_t>{1, v[0]};
}

bool rank_3(const GraphBuilder& b, NodeId id) {
  const auto shape = concrete_shape(b.type_of(id));
  return shape && shape->size() == 3;
}

NodeId unit_axis(GraphBuilder& b, NodeId x, int64_t axis, Span s) {
  return b.call("expand_dims", {{"axis", attr_int(axis)}, {"num_newaxis", attr_int(1)}}, {x}, s);
}

NodeId drop_unit_axis(GraphBuilder& b, NodeId x, int64_t axis, Span s) {
  const int64_t axes[1] = {axis};
  return b.call("squeeze", {{"axis", attr_ints(axes)}}, {x}, s);
}

std::optional<NodeId> conv1d(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const std::string data_layout = n.attrs.get_string("data_layout");
  const auto data = lift_layout(data_layout), kernel = lift_layout(n.attrs.get_string("kernel_layout"));
  const std::string out_layout = n.attrs.get_string("out_layout");
  if (!data || data->weight || !kernel || !kernel->weight ||
      !(out_layout.empty() || out_layout == data_layout) || in.size() != 2 || !rank_3(b, in[0]) || !rank_3(b, in[1]))
    return std::nullopt;
  const auto strides = lift_one(n.attrs.get_ints("strides")), dilation = lift_one(n.attrs.get_ints("dilation"));
  const auto padding = lift_padding(n.attrs.get_ints("padding"));
  const std::vector<int64_t> size = n.attrs.get_ints("kernel_size");
  if (!strides || !dilation || !padding || size.size() > 1) return std::nullopt;
  std::vector<std::pair<std::string, AttrVal>> attrs = {
      {"strides", attr_ints(*strides)},       {"padding", attr_ints(*padding)},
      {"dilation", attr_ints(*dilation)},     {"groups", attr_int(n.attrs.get_int("groups", 1))},
      {"data_layout", attr_string(data->layout)}, {"kernel_layout", attr_string(kernel->layout)}};
  if (!size.empty()) attrs.push_back({"kernel_size", attr_ints(*lift_one(size))});
  for (const char* copied : {"channels", "out_dtype"})
    if (const AttrVal* v = n.attrs.get(copied)) attrs.push_back({copied, *v});
  const Span s = n.span;
  NodeId out = b.call("nn.conv2d", std::move(attrs),
                      {unit_axis(b, in[0], data->axis, s), unit_axis(b, in[1], kernel->axis, s)}, s);
  return drop_unit_axis(b, out, data->axis, s);
}

std::optional<NodeId> pool1d(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in, bool is_max) {
  const std::string layout = n.attrs.get_string("layout"), out_layout = n.attrs.get_string("out_layout");
  const auto lifted = lift_layout(layout);
  if (!lifted || lifted->weight || !(out_layout.empty() || out_layout == layout) ||
      in.size() != 1 || !rank_3(b, in[0]))
    return std::nullopt;
  const auto size = lift_one(n.attrs.get_ints("pool_size")), strides = lift_one(n.attrs.get_ints("strides")),
             dilation = lift_one(n.attrs.get_ints("dilation"));
  const auto padding = lift_padding(n.attrs.get_ints("padding"));
  if (!size || !strides || !dilation || !padding) return std::nullopt;
  std::vector<std::pair<std::string, AttrVal>> attrs = {
      {"pool_size", attr_ints(*size)},   {"strides", attr_ints(*strides)},
      {"dilation", attr_ints(*dilation)}, {"padding", attr_ints(*padding)},
      {"layout", attr_string(lifted->layout)}, {"ceil_mode", attr_bool(n.attrs.get_bool("ceil_mode"))}};
  if (!is_max) attrs.push_back({"count_include_pad", attr_bool(n.attrs.get_bool("count_include_pad"))});
  const Span s = n.span;
  NodeId out = b.call(is_max ? "nn.max_pool2d" : "nn.avg_pool2d", std::move(attrs), {unit_axis(b, in[0], lifted->axis, s)}, s);
  return drop_unit_axis(b, out, lifted->axis, s);
}

}  // namespace

Graph one_d_as_two_d(const Graph& g) {
  return rebuild(g, [](GraphBuilder& b, const Node& n, std::vector<NodeId> in) {
    std::optional<NodeId> lifted;
    if (n.kind == NodeKind::Call && n.op->name == "nn.conv1d") lifted = conv1d(b, n, in);
    else if (n.kind == NodeKind::Call && n.op->name == "nn.max_pool1d") lifted = pool1d(b, n, in, true);
    else if (n.kind == NodeKind::Call && n.op->name == "nn.avg_pool1d") lifted = pool1d(b, n, in, false);
    return lifted ? *lifted : b.copy(n, std::move(in));
  });
}

}  // namespace relay::compiler
