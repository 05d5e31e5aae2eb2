// Relations of the convolution, pooling and spatial-rearrangement operators of §3.7
// (reference §3.0.2 layouts, §3.0.6 convolutions, §3.0.7 pooling).
//
// Two engines carry most of the family:
//   * ConvRelation serves every convolution: 1-, 2- and 3-D, transposed, grouped and
//     depthwise, deformable, and the contrib variants whose weight is pre-transformed. It
//     views data and weight in the canonical layouts (NCHW / OIHW / IOHW and their 1-D and
//     3-D forms), forces or checks the weight, and maps the result to `out_layout`.
//   * pool_relation serves max/avg pooling of every rank; global and adaptive pooling share
//     its layout handling, and conv and pooling share the sliding-window formula.
// The remaining operators are small rules over a layout's canonical view.
#include <cmath>
#include <utility>

#include "lang/types/relations/relation_util.h"

namespace relay {
namespace {

using rel::Layout;
using rel::tensor_input;

// ---------------------------------------------------------------------------------------
// Messages and results

using rel::shape_label;

std::string op_prefix(RelationContext& ctx) { return rel::op_tag(ctx) + ": "; }

// Attribute-value text of a dimension list, as written in a call: `[7, 7]`.
std::string attr_list_text(std::span<const Dim> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + dims[i].to_string();
  return s + "]";
}

RelStatus fail_attr(RelationContext& ctx, std::string_view attr, std::string message,
                    std::string label = {}) {
  return ctx.fail(RelError{op_prefix(ctx) + message, {}, std::string(attr), std::move(label), {}});
}

RelStatus fail_input(RelationContext& ctx, size_t input, const TensorTy* t, std::string message,
                     std::string_view attr = {}) {
  return ctx.fail(
      RelError{op_prefix(ctx) + message, {{input, shape_label(t)}}, std::string(attr), {}, {}});
}

RelStatus assign_tensor(RelationContext& ctx, const std::vector<Dim>& shape, DataType dtype) {
  return rel::assign_result(ctx, rel::make_tensor(ctx, shape, dtype));
}

// The result dtype of ops with an `out_dtype` attribute: void means "the input's".
DataType out_dtype_or(RelationContext& ctx, DataType fallback) {
  return ctx.attrs().get_dtype("out_dtype").value_or(fallback);
}

// ---------------------------------------------------------------------------------------
// Attributes

// Spatial axis letters of the canonical layouts, outermost first.
std::string spatial_letters(size_t rank) { return std::string("DHW").substr(3 - rank); }

// "spatial axis (H, W)": what each value of a per-axis attribute stands for, in messages.
std::string each_spatial_axis(size_t rank) {
  std::string s = "spatial axis (";
  for (char axis : spatial_letters(rank)) s += std::string(s.back() == '(' ? "" : ", ") + axis;
  return s + ")";
}

// An attribute with one value per axis (`strides`, `dilation`, `pool_size`, ...); `each`
// says what one value stands for. TVM indexes these arrays by axis, so any other length is
// an error. A field the op's attrs struct lacks reads as all 1s (bitserial_conv2d has no
// `dilation`).
std::optional<std::vector<Dim>> per_axis_attr(RelationContext& ctx, std::string_view attr,
                                              size_t count, const std::string& each) {
  if (!ctx.attrs().get(attr)) return std::vector<Dim>(count, Dim::constant(1));
  std::vector<Dim> values = ctx.attrs().get_dims(attr);
  if (values.size() == count) return values;
  fail_attr(ctx, attr,
            "`" + std::string(attr) + "` needs " + std::to_string(count) +
                (count == 1 ? " value" : " values") + ", one per " + each + ", but has " +
                std::to_string(values.size()),
            "has " + std::to_string(values.size()) + " values");
  return std::nullopt;
}

std::optional<std::vector<Dim>> per_axis_attr(RelationContext& ctx, std::string_view attr,
                                              size_t rank) {
  return per_axis_attr(ctx, attr, rank, each_spatial_axis(rank));
}

// As per_axis_attr, and every constant value must be positive (strides and window sizes
// divide or count positions).
std::optional<std::vector<Dim>> positive_per_axis_attr(RelationContext& ctx, std::string_view attr,
                                                       size_t count, const std::string& each) {
  auto values = per_axis_attr(ctx, attr, count, each);
  if (!values) return std::nullopt;
  for (const Dim& v : *values) {
    if (v.is_constant() && *v.constant_value() <= 0) {
      fail_attr(ctx, attr,
                "`" + std::string(attr) + "` must be positive, but is " + attr_list_text(*values),
                "not positive");
      return std::nullopt;
    }
  }
  return values;
}

std::optional<std::vector<Dim>> positive_per_axis_attr(RelationContext& ctx, std::string_view attr,
                                                       size_t rank) {
  return positive_per_axis_attr(ctx, attr, rank, each_spatial_axis(rank));
}

// Total padding per spatial axis (§3.0.6): 1 value pads every side; `rank` values pad both
// sides of their axis; 2*rank values list every axis's leading pad, then every trailing pad
// (2-D: top, left, bottom, right).
std::optional<std::vector<Dim>> total_padding(RelationContext& ctx, size_t rank,
                                              std::string_view attr = "padding") {
  std::vector<Dim> pad = ctx.attrs().get_dims(attr);
  std::vector<Dim> total;
  if (pad.size() == 1) {
    total.assign(rank, pad[0] * 2);
  } else if (pad.size() == rank) {
    for (const Dim& p : pad) total.push_back(p * 2);
  } else if (pad.size() == 2 * rank) {
    for (size_t i = 0; i < rank; ++i) total.push_back(pad[i] + pad[rank + i]);
  } else {
    std::string sizes =
        rank == 1 ? "1 or 2" : "1, " + std::to_string(rank) + " or " + std::to_string(2 * rank);
    fail_attr(ctx, attr,
              "`" + std::string(attr) + "` needs " + sizes + " values, but has " +
                  std::to_string(pad.size()),
              "has " + std::to_string(pad.size()) + " values");
    return std::nullopt;
  }
  return total;
}

// An optional integer-expression attribute (`channels`): nullopt for None.
std::optional<Dim> optional_dim_attr(RelationContext& ctx, std::string_view attr) {
  const AttrVal* v = ctx.attrs().get(attr);
  if (!v || v->kind == AttrVal::Kind::None) return std::nullopt;
  return v->kind == AttrVal::Kind::Int ? Dim::constant(v->int_value) : Dim::any();
}

// A positive integer attribute (`groups`, `block_size`); nullopt after reporting.
std::optional<int64_t> positive_int_attr(RelationContext& ctx, std::string_view attr,
                                         int64_t fallback) {
  int64_t v = ctx.attrs().get_int(attr, fallback);
  if (v > 0) return v;
  fail_attr(ctx, attr, "`" + std::string(attr) + "` must be positive, but is " + std::to_string(v),
            "not positive");
  return std::nullopt;
}

// Division of a dimension by a stride or block size (floor division, as TVM's indexdiv).
// A stride that is not a constant gives `?`.
Dim divide(const Dim& d, const Dim& divisor) {
  auto c = divisor.constant_value();
  if (!c || *c <= 0) return Dim::any();
  return *floordiv(d, *c);
}

// ---------------------------------------------------------------------------------------
// Layouts (§3.0.2)

bool same_primal_axes(const Layout& a, const Layout& b) {
  auto primal_count = [](const Layout& l) {
    size_t n = 0;
    for (const Layout::Axis& axis : l.axes) n += axis.factor == 0;
    return n;
  };
  if (primal_count(a) != primal_count(b)) return false;
  for (const Layout::Axis& axis : a.axes)
    if (axis.factor == 0 && b.index_of(axis.name) < 0) return false;
  return true;
}

// The layout written in attribute `attr`; it must have exactly the primal axes of
// `canonical` (sub-axes such as the `16c` of NCHW16c are allowed), since the relation
// converts shapes through the bijective mapping between the two.
std::optional<Layout> read_layout(RelationContext& ctx, std::string_view attr,
                                  const std::string& text, const Layout& canonical) {
  auto layout = Layout::parse(text);
  if (!layout) {
    fail_attr(ctx, attr, "`" + std::string(attr) + "` \"" + text + "\" is not a valid layout",
              "not a layout");
    return std::nullopt;
  }
  if (!same_primal_axes(*layout, canonical)) {
    fail_attr(ctx, attr,
              "`" + std::string(attr) + "` \"" + text + "\" cannot be converted to " +
                  canonical.to_string() + ": it needs exactly the axes " + canonical.to_string(),
              "not convertible to " + canonical.to_string());
    return std::nullopt;
  }
  return layout;
}

Layout canonical_layout(std::string_view text) { return *Layout::parse(text); }

// Input `i`'s shape reordered from `layout` into `canonical`, sub-axes folded in.
std::optional<std::vector<Dim>> to_canonical(RelationContext& ctx, size_t i, const TensorTy* t,
                                             const Layout& layout, const Layout& canonical,
                                             std::string_view attr) {
  if (t->rank() != layout.size()) {
    fail_input(ctx, i, t,
               rel::input_name(ctx, i) + " has rank " + std::to_string(t->rank()) + ", but `" +
                   std::string(attr) + "` \"" + layout.to_string() + "\" has " +
                   std::to_string(layout.size()) + " axes",
               attr);
    return std::nullopt;
  }
  return rel::convert_layout(t->shape, layout, canonical);
}

// A canonical shape in `layout` (which read_layout has checked to be convertible).
std::vector<Dim> from_canonical(std::span<const Dim> shape, const Layout& canonical,
                                const Layout& layout) {
  return *rel::convert_layout(shape, canonical, layout);
}

// "dim 1 of `data_layout` NCHW": where a canonical axis sits in a written layout.
std::string axis_position(const Layout& layout, char axis, std::string_view attr) {
  return "dim " + std::to_string(layout.index_of(axis)) + " of `" + std::string(attr) + "` " +
         layout.to_string();
}

// ---------------------------------------------------------------------------------------
// Sliding windows (shared by convolution and pooling)

// Number of window positions along one axis (§3.0.6, §3.0.7):
//   (in + pad - dilated_window + (ceil_mode ? stride - 1 : 0)) / stride + 1.
// A `?` input stays `?` (Dim arithmetic propagates it).
Dim window_positions(const Dim& in, const Dim& pad, const Dim& dilated_window, const Dim& stride,
                     bool ceil_mode) {
  Dim span = in + pad - dilated_window;
  if (ceil_mode) span = span + stride - 1;
  return divide(span, stride) + 1;
}

Dim dilated(const Dim& window, const Dim& dilation) { return (window - 1) * dilation + 1; }

// A constant output extent below 1 means the window does not fit: TVM would build a tensor
// type with a non-positive dimension, which no program can use.
bool check_output_extent(RelationContext& ctx, const TensorTy* data, char axis, const Dim& out,
                         const Dim& in, const Dim& pad, const Dim& window, const Dim& stride) {
  if (!out.is_constant() || *out.constant_value() > 0) return true;
  fail_input(ctx, 0, data,
             "the output `" + std::string(1, axis) + "` would be " + out.to_string() +
                 ", which is not positive (input " + in.to_string() + ", padding " +
                 pad.to_string() + ", dilated window " + window.to_string() + ", stride " +
                 stride.to_string() + ")");
  return false;
}

// ---------------------------------------------------------------------------------------
// Convolution (§3.0.6)

struct ConvSpec {
  size_t spatial_rank = 2;
  bool transposed = false;
  // Winograd, NCHWc, GEMM and bitserial convolutions take a weight in a backend-specific
  // packed form that TVM does not check: `channels` and `kernel_size` must then be given.
  bool pretransformed_weight = false;
  size_t weight_input = 1;  // deformable_conv2d takes (data, offset, weight)
  // TVM 0.14's conv3d_transpose, when it reads the kernel from the weight, computes output H
  // from the dilated kernel width and W from the dilated kernel height (reference §3.7).
  bool swaps_weight_hw = false;
};

// What the attributes and the data demand of one canonical weight dimension, and why.
struct WeightDemand {
  std::optional<Dim> value;
  std::string reason;  // "`channels` is 64"
  std::string attr;    // the attribute to point at, if any
};

class ConvRelation {
 public:
  ConvRelation(RelationContext& ctx, ConvSpec spec) : ctx_(ctx), spec_(spec) {}

  // Reads data and attributes and forces or checks the weight. When Solved, the accessors
  // below describe the result.
  RelStatus solve();

  const TensorTy* data() const { return data_; }
  const Layout& data_layout() const { return data_layout_; }
  const Layout& data_canonical() const { return data_canonical_; }
  const std::vector<Dim>& kernel() const { return kernel_; }
  const std::vector<Dim>& output_spatial() const { return output_spatial_; }
  const std::vector<Dim>& data_canonical_shape() const { return data_nc_; }
  std::vector<Dim> output_shape() const;
  DataType output_dtype() const { return out_dtype_or(ctx_, data_->dtype); }

 private:
  RelStatus read_attrs();
  RelStatus read_layouts();
  RelStatus kernel_from_attrs();
  RelStatus infer_weight();
  bool is_depthwise(std::span<const Dim> weight) const;
  std::vector<WeightDemand> weight_demands(bool depthwise) const;
  bool check_weight(std::span<const Dim> weight, const std::vector<WeightDemand>& demands);
  Dim channels_of_weight(std::span<const Dim> weight, bool depthwise) const;
  RelStatus compute_output_spatial(bool kernel_from_weight);
  WeightDemand per_group(const Dim& total, std::string reason, std::string attr) const;

  RelationContext& ctx_;
  const ConvSpec spec_;
  size_t rank_ = 0;  // spatial rank
  const TensorTy* data_ = nullptr;
  const TensorTy* weight_ = nullptr;  // null while unknown
  std::vector<Dim> data_nc_;          // data in the canonical layout (N, C, spatial...)

  std::vector<Dim> strides_, dilation_, padding_, output_padding_;
  int64_t groups_ = 1;
  std::optional<Dim> channels_;
  std::optional<std::vector<Dim>> kernel_size_;

  Layout data_layout_, kernel_layout_, out_layout_;
  Layout data_canonical_, kernel_canonical_;
  // A kernel layout with a `G` axis carries the groups explicitly (DNNL's grouped layouts).
  bool explicit_groups_ = false;

  Dim out_channels_;
  std::vector<Dim> kernel_;  // kernel extent per spatial axis (not dilated)
  std::vector<Dim> output_spatial_;
};

RelStatus ConvRelation::solve() {
  RelStatus st = RelStatus::Solved;
  rank_ = spec_.spatial_rank;
  data_ = tensor_input(ctx_, 0, st);
  if (!data_) return st;
  if ((st = read_attrs()) != RelStatus::Solved) return st;
  if ((st = read_layouts()) != RelStatus::Solved) return st;
  auto nc = to_canonical(ctx_, 0, data_, data_layout_, data_canonical_, "data_layout");
  if (!nc) return RelStatus::Failed;
  data_nc_ = std::move(*nc);
  st = spec_.pretransformed_weight ? kernel_from_attrs() : infer_weight();
  if (st != RelStatus::Solved) return st;
  bool kernel_from_weight = !spec_.pretransformed_weight && !(channels_ && kernel_size_);
  return compute_output_spatial(kernel_from_weight);
}

RelStatus ConvRelation::read_attrs() {
  auto strides = positive_per_axis_attr(ctx_, "strides", rank_);
  if (!strides) return RelStatus::Failed;
  auto dilation = positive_per_axis_attr(ctx_, "dilation", rank_);
  if (!dilation) return RelStatus::Failed;
  auto padding = total_padding(ctx_, rank_);
  if (!padding) return RelStatus::Failed;
  auto output_padding = spec_.transposed ? per_axis_attr(ctx_, "output_padding", rank_)
                                         : std::vector<Dim>(rank_, Dim::constant(0));
  if (!output_padding) return RelStatus::Failed;
  auto groups = positive_int_attr(ctx_, "groups", 1);
  if (!groups) return RelStatus::Failed;
  if (!ctx_.attrs().is_none("kernel_size")) {
    kernel_size_ = positive_per_axis_attr(ctx_, "kernel_size", rank_);
    if (!kernel_size_) return RelStatus::Failed;
  }
  strides_ = std::move(*strides);
  dilation_ = std::move(*dilation);
  padding_ = std::move(*padding);
  output_padding_ = std::move(*output_padding);
  groups_ = *groups;
  channels_ = optional_dim_attr(ctx_, "channels");
  return RelStatus::Solved;
}

RelStatus ConvRelation::read_layouts() {
  const CallAttrs& attrs = ctx_.attrs();
  std::string spatial = spatial_letters(rank_);
  data_canonical_ = canonical_layout("NC" + spatial);
  std::string data_text = attrs.get_string("data_layout");
  std::string out_text = attrs.get_string("out_layout");
  auto data_layout = read_layout(ctx_, "data_layout", data_text, data_canonical_);
  if (!data_layout) return RelStatus::Failed;
  auto out_layout =
      read_layout(ctx_, "out_layout", out_text.empty() ? data_text : out_text, data_canonical_);
  if (!out_layout) return RelStatus::Failed;
  data_layout_ = std::move(*data_layout);
  out_layout_ = std::move(*out_layout);
  if (spec_.pretransformed_weight) return RelStatus::Solved;  // the weight is not read

  std::string kernel_text = attrs.get_string("kernel_layout");
  explicit_groups_ = groups_ > 1 && kernel_text.find('G') != std::string::npos;
  kernel_canonical_ = canonical_layout(std::string(explicit_groups_ ? "G" : "") +
                                       (spec_.transposed ? "IO" : "OI") + spatial);
  auto kernel_layout = read_layout(ctx_, "kernel_layout", kernel_text, kernel_canonical_);
  if (!kernel_layout) return RelStatus::Failed;
  kernel_layout_ = std::move(*kernel_layout);
  return RelStatus::Solved;
}

// Pre-transformed weights: the kernel comes from the attributes alone.
RelStatus ConvRelation::kernel_from_attrs() {
  const char* missing = !channels_ ? "channels" : !kernel_size_ ? "kernel_size" : nullptr;
  if (missing)
    return fail_attr(ctx_, missing,
                     "needs both `channels` and `kernel_size`: its weight is pre-transformed or "
                     "bit-packed, so they cannot be read from it",
                     "missing");
  out_channels_ = *channels_;
  kernel_ = *kernel_size_;
  return RelStatus::Solved;
}

// TVM's depthwise test (§3.0.6): groups > 1 equals both the data's channels and the
// weight's O.
bool ConvRelation::is_depthwise(std::span<const Dim> weight) const {
  if (spec_.transposed || explicit_groups_ || groups_ == 1) return false;
  return data_nc_[1] == groups_ && weight[kernel_canonical_.index_of('O')] == groups_;
}

WeightDemand ConvRelation::per_group(const Dim& total, std::string reason, std::string attr) const {
  return {*floordiv(total, groups_), std::move(reason), std::move(attr)};
}

// The canonical weight shape as far as the attributes and the data determine it (§3.0.6):
// (channels, C_in/groups, kernel...) for a convolution, (C_in, channels/groups, kernel...)
// for a transposed one, (C_in, channels/C_in, kernel...) when depthwise, with a leading
// `groups` axis for G layouts.
std::vector<WeightDemand> ConvRelation::weight_demands(bool depthwise) const {
  std::vector<WeightDemand> demands(kernel_canonical_.size());
  auto at = [&](char axis) -> WeightDemand& { return demands[kernel_canonical_.index_of(axis)]; };
  const Dim& c_in = data_nc_[1];
  std::string groups_text = "groups=" + std::to_string(groups_);
  std::string data_channels = "data has " + c_in.to_string() + " channels (`C`, " +
                              axis_position(data_layout_, 'C', "data_layout") + ")";
  std::string channels_text = channels_ ? "`channels` is " + channels_->to_string() : "";

  if (explicit_groups_) at('G') = {Dim::constant(groups_), groups_text, "groups"};
  if (depthwise) {
    at('O') = {c_in, "the convolution is depthwise: " + groups_text + " equals data's channels",
               "groups"};
    if (channels_)
      at('I') = per_group(*channels_,
                          "the convolution is depthwise (" + groups_text +
                              " equals data's channels) and " + channels_text,
                          "channels");
  } else if (spec_.transposed) {
    at('I') = explicit_groups_ ? per_group(c_in, data_channels + " and " + groups_text, "groups")
                               : WeightDemand{c_in, data_channels, ""};
    if (channels_)
      at('O') = per_group(*channels_, channels_text + " and " + groups_text, "channels");
  } else {
    at('I') = per_group(c_in, data_channels + " and " + groups_text, groups_ > 1 ? "groups" : "");
    if (channels_)
      at('O') = explicit_groups_
                    ? per_group(*channels_, channels_text + " and " + groups_text, "channels")
                    : WeightDemand{*channels_, channels_text, "channels"};
  }
  if (kernel_size_) {
    std::string spatial = spatial_letters(rank_);
    for (size_t i = 0; i < rank_; ++i)
      at(spatial[i]) = {(*kernel_size_)[i], "`kernel_size` is " + attr_list_text(*kernel_size_),
                        "kernel_size"};
  }
  return demands;
}

// Compares the weight (canonical order) with what is demanded of it; reports the first
// dimension that provably differs.
bool ConvRelation::check_weight(std::span<const Dim> weight,
                                const std::vector<WeightDemand>& demands) {
  for (size_t p = 0; p < demands.size(); ++p) {
    const WeightDemand& d = demands[p];
    if (!d.value || rel::compare_dims(weight[p], *d.value) != rel::DimCmp::Unequal) continue;
    char axis = kernel_canonical_.axes[p].name;
    ctx_.report(RelError{
        op_prefix(ctx_) + "the weight's `" + std::string(1, axis) + "` dimension (" +
            axis_position(kernel_layout_, axis, "kernel_layout") + ") is " + weight[p].to_string() +
            ", but it must be " + d.value->to_string() + ": " + d.reason,
        {{0, shape_label(data_)}, {spec_.weight_input, shape_label(weight_)}},
        d.attr,
        d.attr.empty() ? "" : "implies " + d.value->to_string(),
        {}});
    return false;
  }
  return true;
}

// Output channels when the weight, not `channels`, determines them (§3.7): O; a
// depthwise weight's O * I (its channel multiplier); G * O with explicit groups. A
// transposed convolution's O is per group, and TVM does not multiply it by `groups`.
Dim ConvRelation::channels_of_weight(std::span<const Dim> weight, bool depthwise) const {
  Dim o = weight[kernel_canonical_.index_of('O')];
  if (explicit_groups_) return o * groups_;
  if (depthwise) return o * weight[kernel_canonical_.index_of('I')];
  return o;
}

// Forces the weight when both `channels` and `kernel_size` are given, else reads the
// kernel and output channels from the weight (§3.0.6).
RelStatus ConvRelation::infer_weight() {
  RelStatus st = RelStatus::Solved;
  if (ctx_.input(spec_.weight_input)->kind != TyKind::Hole) {
    weight_ = tensor_input(ctx_, spec_.weight_input, st);
    if (!weight_) return st;
  }
  bool forced = channels_ && kernel_size_;
  // Without the weight, a grouped convolution cannot tell depthwise from plain grouped.
  bool needs_weight = !forced || (groups_ > 1 && !spec_.transposed);
  if (!weight_ && needs_weight) return RelStatus::Pending;

  std::optional<std::vector<Dim>> w;
  if (weight_) {
    w = to_canonical(ctx_, spec_.weight_input, weight_, kernel_layout_, kernel_canonical_,
                     "kernel_layout");
    if (!w) return RelStatus::Failed;
  }
  bool depthwise = w && is_depthwise(*w);
  std::vector<WeightDemand> demands = weight_demands(depthwise);
  if (w && !check_weight(*w, demands)) return RelStatus::Failed;

  if (!forced) {
    out_channels_ = channels_of_weight(*w, depthwise);
    size_t first_spatial = kernel_canonical_.size() - rank_;
    kernel_.assign(w->begin() + static_cast<std::ptrdiff_t>(first_spatial), w->end());
    return RelStatus::Solved;
  }
  std::vector<Dim> forced_shape;
  for (const WeightDemand& d : demands) forced_shape.push_back(*d.value);
  DataType dtype = weight_ ? weight_->dtype : data_->dtype;
  Ty forced_ty = rel::make_tensor(
      ctx_, from_canonical(forced_shape, kernel_canonical_, kernel_layout_), dtype);
  if (!ctx_.assign_input(spec_.weight_input, forced_ty)) return RelStatus::Failed;
  out_channels_ = *channels_;
  kernel_ = *kernel_size_;
  return RelStatus::Solved;
}

RelStatus ConvRelation::compute_output_spatial(bool kernel_from_weight) {
  std::vector<Dim> window;
  for (size_t i = 0; i < rank_; ++i) window.push_back(dilated(kernel_[i], dilation_[i]));
  if (spec_.swaps_weight_hw && kernel_from_weight) std::swap(window[1], window[2]);

  std::string spatial = spatial_letters(rank_);
  output_spatial_.clear();
  for (size_t i = 0; i < rank_; ++i) {
    const Dim& in = data_nc_[2 + i];
    Dim out = spec_.transposed
                  ? strides_[i] * (in - 1) + window[i] - padding_[i] + output_padding_[i]
                  : window_positions(in, padding_[i], window[i], strides_[i], false);
    if (!check_output_extent(ctx_, data_, spatial[i], out, in, padding_[i], window[i], strides_[i]))
      return RelStatus::Failed;
    output_spatial_.push_back(out);
  }
  return RelStatus::Solved;
}

std::vector<Dim> ConvRelation::output_shape() const {
  std::vector<Dim> nc = {data_nc_[0], out_channels_};
  nc.insert(nc.end(), output_spatial_.begin(), output_spatial_.end());
  return from_canonical(nc, data_canonical_, out_layout_);
}

RelStatus conv_relation(RelationContext& ctx, ConvSpec spec) {
  ConvRelation conv(ctx, spec);
  RelStatus st = conv.solve();
  if (st != RelStatus::Solved) return st;
  return assign_tensor(ctx, conv.output_shape(), conv.output_dtype());
}

// nn.deformable_conv2d(data, offset, weight): a conv2d whose offset input is forced to
// (N, 2*kh*kw*deformable_groups, out_h, out_w) in the data layout (§3.7).
RelStatus deformable_conv2d(RelationContext& ctx) {
  ConvRelation conv(ctx, {.spatial_rank = 2, .weight_input = 2});
  RelStatus st = conv.solve();
  if (st != RelStatus::Solved) return st;
  auto deformable_groups = positive_int_attr(ctx, "deformable_groups", 1);
  if (!deformable_groups) return RelStatus::Failed;
  const std::vector<Dim>& k = conv.kernel();
  std::vector<Dim> offset = {conv.data_canonical_shape()[0], k[0] * k[1] * (2 * *deformable_groups),
                             conv.output_spatial()[0], conv.output_spatial()[1]};
  Ty offset_ty = rel::make_tensor(
      ctx, from_canonical(offset, conv.data_canonical(), conv.data_layout()), conv.data()->dtype);
  if (!ctx.assign_input(1, offset_ty)) return RelStatus::Failed;
  return assign_tensor(ctx, conv.output_shape(), conv.output_dtype());
}

// nn.conv2d_backward_weight(grad, data): the weight gradient, shaped like a conv2d weight
// (§3.7). Its attributes are repurposed: `data_layout` is grad's layout, `kernel_layout`
// data's, `out_layout` the result's.
RelStatus conv2d_backward_weight(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* grad = tensor_input(ctx, 0, st);
  const TensorTy* data = tensor_input(ctx, 1, st);
  if (!grad || !data) return st;
  if (ctx.attrs().is_none("kernel_size"))
    return fail_attr(ctx, "kernel_size", "needs `kernel_size`", "missing");
  auto kernel = positive_per_axis_attr(ctx, "kernel_size", 2);
  auto groups = positive_int_attr(ctx, "groups", 1);
  if (!kernel || !groups) return RelStatus::Failed;

  const CallAttrs& attrs = ctx.attrs();
  Layout nchw = canonical_layout("NCHW"), oihw = canonical_layout("OIHW");
  std::string weight_text = attrs.get_string("out_layout");
  auto grad_layout = read_layout(ctx, "data_layout", attrs.get_string("data_layout"), nchw);
  auto data_layout = read_layout(ctx, "kernel_layout", attrs.get_string("kernel_layout"), nchw);
  auto weight_layout =
      read_layout(ctx, "out_layout", weight_text.empty() ? "OIHW" : weight_text, oihw);
  if (!grad_layout || !data_layout || !weight_layout) return RelStatus::Failed;
  auto grad_nc = to_canonical(ctx, 0, grad, *grad_layout, nchw, "data_layout");
  auto data_nc = to_canonical(ctx, 1, data, *data_layout, nchw, "kernel_layout");
  if (!grad_nc || !data_nc) return RelStatus::Failed;

  const Dim& in_channels = (*data_nc)[1];
  const Dim& out_channels = (*grad_nc)[1];
  // Depthwise: data and grad both have `groups` channels; the weight's I is then the
  // channel multiplier channels/groups.
  bool depthwise = in_channels == *groups && out_channels == *groups;
  std::optional<Dim> channels = optional_dim_attr(ctx, "channels");
  if (depthwise && !channels)
    return fail_attr(ctx, "channels", "a depthwise weight gradient needs `channels`", "missing");
  Dim weight_in = *floordiv(depthwise ? *channels : in_channels, *groups);
  std::vector<Dim> oihw_shape = {out_channels, weight_in, (*kernel)[0], (*kernel)[1]};
  return assign_tensor(ctx, from_canonical(oihw_shape, oihw, *weight_layout),
                       out_dtype_or(ctx, grad->dtype));
}

// ---------------------------------------------------------------------------------------
// Convolution weight transforms (§3.7): the weight's layout for Winograd / NNPACK / GEMM.

// A weight input of a fixed rank; nullptr with `st` set otherwise.
const TensorTy* weight_of_rank(RelationContext& ctx, size_t rank, std::string_view layout,
                               RelStatus& st) {
  const TensorTy* w = tensor_input(ctx, 0, st);
  if (!w || w->rank() == rank) return w;
  st = fail_input(ctx, 0, w,
                  "expects a " + std::to_string(rank) + "-D weight in " + std::string(layout) +
                      " layout, but it has rank " + std::to_string(w->rank()));
  return nullptr;
}

// OIHW -> (tile+kh-1, tile+kw-1, O, I).
RelStatus winograd_weight_transform_2d(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* w = weight_of_rank(ctx, 4, "OIHW", st);
  if (!w) return st;
  int64_t tile = ctx.attrs().get_int("tile_size");
  return assign_tensor(
      ctx, {w->shape[2] + tile - 1, w->shape[3] + tile - 1, w->shape[0], w->shape[1]}, w->dtype);
}

// OIDHW -> (tile+kd-1, tile+kh-1, tile+kw-1, O, I) when the kernel depth is in (2, 8),
// else only H and W are transformed: (tile+kh-1, tile+kw-1, kd, O, I). A kernel depth that
// is not a constant leaves the choice, and so those three dims, unknown.
RelStatus winograd_weight_transform_3d(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* w = weight_of_rank(ctx, 5, "OIDHW", st);
  if (!w) return st;
  int64_t tile = ctx.attrs().get_int("tile_size");
  auto transformed = [&](size_t i) { return w->shape[i] + tile - 1; };
  auto depth = w->shape[2].constant_value();
  std::vector<Dim> tiles;
  if (!depth)
    tiles = {Dim::any(), Dim::any(), Dim::any()};
  else if (*depth > 2 && *depth < 8)
    tiles = {transformed(2), transformed(3), transformed(4)};
  else
    tiles = {transformed(3), transformed(4), w->shape[2]};
  tiles.push_back(w->shape[0]);
  tiles.push_back(w->shape[1]);
  return assign_tensor(ctx, tiles, w->dtype);
}

// OIHW -> (O, I, 8, 8); dtype out_dtype or the weight's.
RelStatus winograd_nnpack_weight_transform(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* w = weight_of_rank(ctx, 4, "OIHW", st);
  if (!w) return st;
  return assign_tensor(ctx, {w->shape[0], w->shape[1], Dim::constant(8), Dim::constant(8)},
                       out_dtype_or(ctx, w->dtype));
}

// HWIO, seen as a (K = H*W*I) x (N = O) matrix padded up to whole tiles ->
// (N_padded/tile_rows, K_padded/tile_cols, tile_rows, tile_cols). As in TVM's
// Conv2DGemmWeightTransformRel, N is padded to a multiple of tile_rows but K to a multiple of
// 4 * tile_cols (its tensorized GEMM consumes four column tiles at once).
RelStatus gemm_weight_transform(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* w = weight_of_rank(ctx, 4, "HWIO", st);
  if (!w) return st;
  auto rows = positive_int_attr(ctx, "tile_rows", 0);
  auto cols = positive_int_attr(ctx, "tile_cols", 0);
  if (!rows || !cols) return RelStatus::Failed;
  auto tiles = [](const Dim& d, int64_t tile) { return *floordiv(d + (tile - 1), tile); };
  Dim k = w->shape[0] * w->shape[1] * w->shape[2];
  return assign_tensor(
      ctx, {tiles(w->shape[3], *rows), tiles(k, 4 * *cols) * 4, Dim::constant(*rows), Dim::constant(*cols)},
      w->dtype);
}

// ---------------------------------------------------------------------------------------
// Pooling (§3.0.7)

// Positions, in data's shape, of the spatial axes `letters` of the layout in attribute
// `attr`. Pooling indexes the data directly (no conversion), so the axes must be present
// and unsplit, and data's rank must match the layout.
std::optional<std::vector<size_t>> pool_axes(RelationContext& ctx, const TensorTy* data,
                                             const std::string& letters,
                                             std::string_view attr = "layout") {
  std::string text = ctx.attrs().get_string(attr);
  auto layout = Layout::parse(text);
  if (!layout) {
    fail_attr(ctx, attr, "`" + std::string(attr) + "` \"" + text + "\" is not a valid layout",
              "not a layout");
    return std::nullopt;
  }
  std::vector<size_t> positions;
  for (char axis : letters) {
    char sub = static_cast<char>(axis - 'A' + 'a');
    if (layout->index_of(axis) < 0 || layout->sub_index_of(sub) >= 0) {
      fail_attr(ctx, attr,
                "`" + std::string(attr) + "` \"" + text + "\" must contain the axes " + letters +
                    ", none of them split",
                "needs unsplit " + letters);
      return std::nullopt;
    }
    positions.push_back(static_cast<size_t>(layout->index_of(axis)));
  }
  if (data->rank() != layout->size()) {
    fail_input(ctx, 0, data,
               "data has rank " + std::to_string(data->rank()) + ", but `" + std::string(attr) +
                   "` \"" + text + "\" has " + std::to_string(layout->size()) + " axes",
               attr);
    return std::nullopt;
  }
  return positions;
}

// nn.max_pool{1,2,3}d, nn.avg_pool{1,2,3}d: each spatial axis becomes its number of window
// positions; the output keeps data's layout and dtype.
RelStatus pool_relation(RelationContext& ctx, size_t rank) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  std::string letters = spatial_letters(rank);
  auto axes = pool_axes(ctx, data, letters);
  auto pool_size = axes ? positive_per_axis_attr(ctx, "pool_size", rank) : std::nullopt;
  auto strides = pool_size ? positive_per_axis_attr(ctx, "strides", rank) : std::nullopt;
  auto dilation = strides ? positive_per_axis_attr(ctx, "dilation", rank) : std::nullopt;
  auto padding = dilation ? total_padding(ctx, rank) : std::nullopt;
  if (!padding) return RelStatus::Failed;
  bool ceil_mode = ctx.attrs().get_bool("ceil_mode");

  std::vector<Dim> out(data->shape.begin(), data->shape.end());
  for (size_t i = 0; i < rank; ++i) {
    const Dim& in = data->shape[(*axes)[i]];
    Dim window = dilated((*pool_size)[i], (*dilation)[i]);
    Dim positions = window_positions(in, (*padding)[i], window, (*strides)[i], ceil_mode);
    if (!check_output_extent(ctx, data, letters[i], positions, in, (*padding)[i], window,
                             (*strides)[i]))
      return RelStatus::Failed;
    out[(*axes)[i]] = positions;
  }
  return assign_tensor(ctx, out, data->dtype);
}

// nn.global_{max,avg}_pool2d: H and W become 1.
RelStatus global_pool2d(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto axes = pool_axes(ctx, data, "HW");
  if (!axes) return RelStatus::Failed;
  std::vector<Dim> out(data->shape.begin(), data->shape.end());
  for (size_t axis : *axes) out[axis] = Dim::constant(1);
  return assign_tensor(ctx, out, data->dtype);
}

// nn.adaptive_{max,avg}_pool{1,2,3}d: the spatial axes become `output_size` (one value: all
// of them; none: unchanged).
RelStatus adaptive_pool_relation(RelationContext& ctx, size_t rank) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto axes = pool_axes(ctx, data, spatial_letters(rank));
  if (!axes) return RelStatus::Failed;
  std::vector<Dim> sizes = ctx.attrs().get_dims("output_size");
  if (sizes.size() == 1) sizes.assign(rank, sizes[0]);
  if (!sizes.empty() && sizes.size() != rank)
    return fail_attr(ctx, "output_size",
                     "`output_size` needs 0, 1 or " + std::to_string(rank) + " values, but has " +
                         std::to_string(sizes.size()),
                     "has " + std::to_string(sizes.size()) + " values");
  std::vector<Dim> out(data->shape.begin(), data->shape.end());
  for (size_t i = 0; i < sizes.size(); ++i) out[(*axes)[i]] = sizes[i];
  return assign_tensor(ctx, out, data->dtype);
}

// nn.{max,avg}_pool2d_grad(out_grad, data): the gradient has data's type.
RelStatus pool_grad(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 1, st);
  if (!data) return st;
  return rel::assign_result(ctx, data);
}

// ---------------------------------------------------------------------------------------
// Spatial rearrangements

// Data seen in the canonical layout `canonical` through the `layout` attribute.
struct CanonicalView {
  Layout layout, canonical;
  std::vector<Dim> shape;
  std::vector<Dim> back(const std::vector<Dim>& canonical_shape) const {
    return from_canonical(canonical_shape, canonical, layout);
  }
};

std::optional<CanonicalView> view_data(RelationContext& ctx, const TensorTy* data,
                                       std::string_view canonical_text) {
  Layout canonical = canonical_layout(canonical_text);
  auto layout = read_layout(ctx, "layout", ctx.attrs().get_string("layout"), canonical);
  if (!layout) return std::nullopt;
  auto shape = to_canonical(ctx, 0, data, *layout, canonical, "layout");
  if (!shape) return std::nullopt;
  return CanonicalView{std::move(*layout), std::move(canonical), std::move(*shape)};
}

// nn.space_to_depth: (C*b*b, H/b, W/b); nn.depth_to_space: (C/(b*b), H*b, W*b), in the
// NCHW view of `layout`. `mode` (DCR/CRD) only orders the moved elements.
RelStatus subpixel_relation(RelationContext& ctx, bool to_depth) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto block = positive_int_attr(ctx, "block_size", 1);
  auto view = block ? view_data(ctx, data, "NCHW") : std::nullopt;
  if (!view) return RelStatus::Failed;
  int64_t b = *block;
  std::vector<Dim> s = view->shape;
  if (to_depth)
    s = {s[0], s[1] * (b * b), *floordiv(s[2], b), *floordiv(s[3], b)};
  else
    s = {s[0], *floordiv(s[1], b * b), s[2] * b, s[3] * b};
  return assign_tensor(ctx, view->back(s), data->dtype);
}

// round(d * scale) for nn.upsampling: TVM multiplies by the scale as a float32 constant and
// rounds half to even. A symbolic d stays exact for an integral scale only; a product too
// large to be a dimension gives `?`.
Dim scaled(const Dim& d, double scale) {
  double scale32 = static_cast<float>(scale);
  auto representable = [](double v) { return std::isfinite(v) && std::fabs(v) < 1e18; };
  if (auto c = d.constant_value()) {
    double v = std::nearbyint(static_cast<double>(*c) * scale32);
    return representable(v) ? Dim::constant(static_cast<int64_t>(v)) : Dim::any();
  }
  if (!d.is_any() && representable(scale32) && scale32 == std::floor(scale32))
    return d * static_cast<int64_t>(scale32);
  return Dim::any();
}

// nn.upsampling / nn.upsampling3d: each spatial axis of the canonical view scaled by its
// `scale_<axis>` attribute.
RelStatus upsampling_relation(RelationContext& ctx, size_t rank) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  std::string letters = spatial_letters(rank);
  auto view = view_data(ctx, data, "NC" + letters);
  if (!view) return RelStatus::Failed;
  std::vector<Dim> s = view->shape;
  for (size_t i = 0; i < rank; ++i) {
    std::string attr = "scale_" + std::string(1, static_cast<char>(letters[i] - 'A' + 'a'));
    s[2 + i] = scaled(s[2 + i], ctx.attrs().get_double(attr));
  }
  return assign_tensor(ctx, view->back(s), data->dtype);
}

// The attributes of the *_nd ops: `block_shape` (positive) and one [before, after] pair per
// block dimension in `pairs_attr` (`paddings` or `crops`).
struct BlockAttrs {
  std::vector<int64_t> block;
  std::vector<std::vector<int64_t>> pairs;
};

std::optional<BlockAttrs> read_block_attrs(RelationContext& ctx, const TensorTy* data,
                                           std::string_view pairs_attr) {
  BlockAttrs a{ctx.attrs().get_ints("block_shape"), ctx.attrs().get_int_matrix(pairs_attr)};
  for (int64_t b : a.block)
    if (b <= 0) {
      fail_attr(ctx, "block_shape", "`block_shape` values must be positive", "not positive");
      return std::nullopt;
    }
  bool pairs = a.pairs.size() == a.block.size();
  for (const auto& row : a.pairs) pairs = pairs && row.size() == 2;
  if (!pairs) {
    fail_attr(ctx, pairs_attr,
              "`" + std::string(pairs_attr) + "` needs one [before, after] pair per " +
                  "`block_shape` value (" + std::to_string(a.block.size()) + ")",
              "has " + std::to_string(a.pairs.size()) + " entries");
    return std::nullopt;
  }
  if (data->rank() < a.block.size() + 1) {
    fail_input(ctx, 0, data,
               "data has rank " + std::to_string(data->rank()) + ", but `block_shape` needs " +
                   std::to_string(a.block.size() + 1) + " axes or more (a batch axis first)",
               "block_shape");
    return std::nullopt;
  }
  return a;
}

// nn.space_to_batch_nd: axis i+1 padded by paddings[i] then divided by block_shape[i]; the
// batch multiplied by their product. nn.batch_to_space_nd reverses it, cropping by crops[i].
RelStatus block_nd_relation(RelationContext& ctx, bool to_batch) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto attrs = read_block_attrs(ctx, data, to_batch ? "paddings" : "crops");
  if (!attrs) return RelStatus::Failed;
  std::vector<Dim> out(data->shape.begin(), data->shape.end());
  Dim block_elements = Dim::constant(1);
  for (size_t i = 0; i < attrs->block.size(); ++i) {
    Dim b = Dim::constant(attrs->block[i]);
    Dim pad = Dim::constant(attrs->pairs[i][0]) + Dim::constant(attrs->pairs[i][1]);
    const Dim& d = data->shape[i + 1];
    out[i + 1] = to_batch ? divide(d + pad, b) : d * b - pad;
    block_elements = block_elements * b;
  }
  out[0] = to_batch ? data->shape[0] * block_elements : divide(data->shape[0], block_elements);
  return assign_tensor(ctx, out, data->dtype);
}

// nn.dilate: out[i] = (d-1)*strides[i] + 1 over every axis.
RelStatus dilate(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto strides = positive_per_axis_attr(ctx, "strides", data->rank(), "axis of data");
  if (!strides) return RelStatus::Failed;
  std::vector<Dim> out;
  for (size_t i = 0; i < data->rank(); ++i) out.push_back((data->shape[i] - 1) * (*strides)[i] + 1);
  return assign_tensor(ctx, out, data->dtype);
}

// nn.correlation(data1, data2), NCHW only (§3.7): (N, (2*(max_displacement/stride2)+1)^2,
// ceil((H+padH-2*border)/stride1), ceil((W+padW-2*border)/stride1)), border =
// max_displacement + (kernel_size-1)/2. As TVM does, H comes from data1 and W from data2.
RelStatus correlation(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data1 = tensor_input(ctx, 0, st);
  const TensorTy* data2 = tensor_input(ctx, 1, st);
  if (!data1 || !data2) return st;
  if (ctx.attrs().get_string("layout") != "NCHW")
    return fail_attr(ctx, "layout", "supports only layout \"NCHW\"", "unsupported layout");
  for (size_t i = 0; i < 2; ++i) {
    const TensorTy* t = i == 0 ? data1 : data2;
    if (t->rank() != 4)
      return fail_input(ctx, i, t,
                        rel::input_name(ctx, i) + " must have rank 4 (NCHW), but has rank " +
                            std::to_string(t->rank()));
  }
  auto stride1 = positive_int_attr(ctx, "stride1", 1);
  auto stride2 = stride1 ? positive_int_attr(ctx, "stride2", 1) : std::nullopt;
  auto padding = stride2 ? total_padding(ctx, 2) : std::nullopt;
  if (!padding) return RelStatus::Failed;
  const CallAttrs& attrs = ctx.attrs();
  int64_t max_displacement = attrs.get_int("max_displacement", 1);
  int64_t border = max_displacement + (attrs.get_int("kernel_size", 1) - 1) / 2;
  int64_t displacements = 2 * (max_displacement / *stride2) + 1;
  auto positions = [&](const Dim& d, const Dim& pad) {
    return *floordiv(d + pad - 2 * border + (*stride1 - 1), *stride1);
  };
  return assign_tensor(
      ctx,
      {data1->shape[0], Dim::constant(displacements * displacements),
       positions(data1->shape[2], (*padding)[0]), positions(data2->shape[3], (*padding)[1])},
      data1->dtype);
}

}  // namespace

void register_conv_pool_relations(RelationTable& t) {
  // Convolutions (§3.0.6).
  register_relation(t, "nn.conv1d",
                    [](RelationContext& c) { return conv_relation(c, {.spatial_rank = 1}); });
  register_relation(t, "nn.conv2d",
                    [](RelationContext& c) { return conv_relation(c, {.spatial_rank = 2}); });
  register_relation(t, "nn.contrib_depthwise_conv2d_NCHWc",
                    [](RelationContext& c) { return conv_relation(c, {.spatial_rank = 2}); });
  register_relation(t, "nn.conv3d",
                    [](RelationContext& c) { return conv_relation(c, {.spatial_rank = 3}); });
  register_relation(t, "nn.conv1d_transpose", [](RelationContext& c) {
    return conv_relation(c, {.spatial_rank = 1, .transposed = true});
  });
  register_relation(t, "nn.conv2d_transpose", [](RelationContext& c) {
    return conv_relation(c, {.spatial_rank = 2, .transposed = true});
  });
  register_relation(t, "nn.conv3d_transpose", [](RelationContext& c) {
    return conv_relation(c, {.spatial_rank = 3, .transposed = true, .swaps_weight_hw = true});
  });
  for (const char* op :
       {"nn.contrib_conv2d_NCHWc", "nn.contrib_conv2d_winograd_without_weight_transform",
        "nn.contrib_conv2d_gemm_without_weight_transform", "nn.bitserial_conv2d"})
    register_relation(t, op, [](RelationContext& c) {
      return conv_relation(c, {.spatial_rank = 2, .pretransformed_weight = true});
    });
  register_relation(t, "nn.contrib_conv3d_winograd_without_weight_transform",
                    [](RelationContext& c) {
                      return conv_relation(c, {.spatial_rank = 3, .pretransformed_weight = true});
                    });
  register_relation(t, "nn.deformable_conv2d", deformable_conv2d);
  register_relation(t, "nn.conv2d_backward_weight", conv2d_backward_weight);
  register_relation(t, "nn.contrib_conv2d_winograd_weight_transform", winograd_weight_transform_2d);
  register_relation(t, "nn.contrib_conv3d_winograd_weight_transform", winograd_weight_transform_3d);
  register_relation(t, "nn.contrib_conv2d_winograd_nnpack_weight_transform",
                    winograd_nnpack_weight_transform);
  register_relation(t, "nn.contrib_conv2d_gemm_weight_transform", gemm_weight_transform);
  register_relation(t, "nn.correlation", correlation);
  register_relation(t, "nn.dilate", dilate);

  // Pooling (§3.0.7).
  for (const char* op : {"nn.max_pool1d", "nn.avg_pool1d"})
    register_relation(t, op, [](RelationContext& c) { return pool_relation(c, 1); });
  for (const char* op : {"nn.max_pool2d", "nn.avg_pool2d"})
    register_relation(t, op, [](RelationContext& c) { return pool_relation(c, 2); });
  for (const char* op : {"nn.max_pool3d", "nn.avg_pool3d"})
    register_relation(t, op, [](RelationContext& c) { return pool_relation(c, 3); });
  for (const char* op : {"nn.global_max_pool2d", "nn.global_avg_pool2d"})
    register_relation(t, op, global_pool2d);
  for (const char* op : {"nn.adaptive_max_pool1d", "nn.adaptive_avg_pool1d"})
    register_relation(t, op, [](RelationContext& c) { return adaptive_pool_relation(c, 1); });
  for (const char* op : {"nn.adaptive_max_pool2d", "nn.adaptive_avg_pool2d"})
    register_relation(t, op, [](RelationContext& c) { return adaptive_pool_relation(c, 2); });
  for (const char* op : {"nn.adaptive_max_pool3d", "nn.adaptive_avg_pool3d"})
    register_relation(t, op, [](RelationContext& c) { return adaptive_pool_relation(c, 3); });
  for (const char* op : {"nn.max_pool2d_grad", "nn.avg_pool2d_grad"})
    register_relation(t, op, pool_grad);

  // Spatial rearrangements.
  register_relation(t, "nn.space_to_depth",
                    [](RelationContext& c) { return subpixel_relation(c, /*to_depth=*/true); });
  register_relation(t, "nn.depth_to_space",
                    [](RelationContext& c) { return subpixel_relation(c, /*to_depth=*/false); });
  register_relation(t, "nn.upsampling",
                    [](RelationContext& c) { return upsampling_relation(c, 2); });
  register_relation(t, "nn.upsampling3d",
                    [](RelationContext& c) { return upsampling_relation(c, 3); });
  register_relation(t, "nn.space_to_batch_nd",
                    [](RelationContext& c) { return block_nd_relation(c, /*to_batch=*/true); });
  register_relation(t, "nn.batch_to_space_nd",
                    [](RelationContext& c) { return block_nd_relation(c, /*to_batch=*/false); });
}

}  // namespace relay
