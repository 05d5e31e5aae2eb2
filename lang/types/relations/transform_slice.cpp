// Relations of §3.5 (tensor transforms), slicing: strided_slice, strided_set,
// slice_like, sliding_window.
// Helpers shared with the other transform families are in transform_util.h.
#include "lang/types/relations/transform_util.h"

namespace relay {
namespace {

using namespace transform_detail;

// ---------------------------------------------------------------------------------------
// Slicing: strided_slice (§3.0.5), strided_set, slice_like, sliding_window

// One sliced axis of strided_slice.
struct SliceAxis {
  size_t axis;
  int64_t begin, end, stride;
};

// With `axes` None, TVM pads short lists to the rank: strides with 1, begin with 0 (the
// largest index where the stride is negative), end with the largest index (0 where the
// stride is negative).
void pad_slice(std::vector<int64_t>& begin, std::vector<int64_t>& end,
               std::vector<int64_t>& strides, size_t rank) {
  strides.resize(std::max(strides.size(), rank), 1);
  for (size_t i = begin.size(); i < rank; ++i) begin.push_back(strides[i] > 0 ? 0 : kMaxIndex);
  for (size_t i = end.size(); i < rank; ++i) end.push_back(strides[i] < 0 ? 0 : kMaxIndex);
}

// The sliced axes: every axis (lists padded) when `axes` is None, else the normalised `axes`
// paired with lists of the same length.
std::optional<std::vector<SliceAxis>> slice_axes(RelationContext& ctx, size_t rank) {
  auto begin = int_list(ctx, "begin");
  auto end = begin ? int_list(ctx, "end") : std::nullopt;
  auto strides = end ? int_list(ctx, "strides") : std::nullopt;
  if (!strides) return std::nullopt;
  std::vector<size_t> axes;
  if (attr_is_none(ctx, "axes")) {
    for (const auto& [name, list] :
         std::initializer_list<std::pair<const char*, const std::vector<int64_t>*>>{
             {"begin", &*begin}, {"end", &*end}, {"strides", &*strides}})
      if (list->size() > rank) {
        report_attr(ctx, name,
                    quoted(name) + " has " + plural(list->size(), "entry", "entries") +
                        " but data has rank " + std::to_string(rank),
                    "too long", {{0, "has rank " + std::to_string(rank)}});
        return std::nullopt;
      }
    pad_slice(*begin, *end, *strides, rank);
    for (size_t i = 0; i < rank; ++i) axes.push_back(i);
  } else {
    auto list = int_list(ctx, "axes");
    auto normalized = list ? distinct_axes(ctx, "axes", *list, rank) : std::nullopt;
    if (!normalized) return std::nullopt;
    axes = *normalized;
    if (begin->size() != axes.size() || end->size() != axes.size() ||
        strides->size() != axes.size()) {
      report_attr(ctx, "axes",
                  "`axes`, `begin`, `end` and `strides` must have the same length, found " +
                      std::to_string(axes.size()) + ", " + std::to_string(begin->size()) + ", " +
                      std::to_string(end->size()) + " and " + std::to_string(strides->size()),
                  "lengths differ");
      return std::nullopt;
    }
  }
  std::vector<SliceAxis> out;
  for (size_t i = 0; i < axes.size(); ++i)
    out.push_back({axes[i], (*begin)[i], (*end)[i], (*strides)[i]});
  return out;
}

// In "size" mode the stride is 1 and `end` is a length from `begin` (negative: to the end),
// as TVM's ConvertToVec reads it.
SliceAxis size_mode_bounds(SliceAxis s) {
  s.stride = 1;
  if (s.end < 0)
    s.end = kMaxIndex;
  else
    s.end = s.end > kMaxIndex - std::max<int64_t>(s.begin, 0) ? kMaxIndex : s.begin + s.end;
  return s;
}

// An index made non-negative against extent `d` and clamped to [0, d] for a positive stride
// or [-1, d-1] for a negative one (topi's CanonicalizeIndex).
int64_t canonical_index(int64_t index, int64_t d, int64_t stride) {
  if (index < 0) index += d;
  return stride < 0 ? std::clamp<int64_t>(index, -1, d - 1) : std::clamp<int64_t>(index, 0, d);
}

// The extent of one sliced axis: ceil(|end - begin| / |stride|) for a constant extent;
// otherwise the whole axis when the slice is [0, max) by 1, else `?`.
std::optional<Dim> sliced_extent(RelationContext& ctx, const Dim& d, const SliceAxis& s) {
  int64_t begin = s.begin, end = s.end;
  auto extent = d.constant_value();
  if (!extent) {
    bool whole = s.stride == 1 && begin == 0 && end == kMaxIndex;
    return whole ? d : Dim::any();
  }
  int64_t b = canonical_index(begin, *extent, s.stride);
  int64_t e = canonical_index(end, *extent, s.stride);
  if (s.stride < 0 ? e > b : b > e) {
    report_attr(
        ctx, "begin",
        "on axis " + std::to_string(s.axis) + " (extent " + std::to_string(*extent) + "), begin " +
            std::to_string(begin) + " is past end " + std::to_string(end) + " for stride " +
            std::to_string(s.stride),
        "empty or reversed slice",
        {{0, "has extent " + std::to_string(*extent) + " at axis " + std::to_string(s.axis)}});
    return std::nullopt;
  }
  uint64_t step = s.stride < 0 ? uint64_t{0} - static_cast<uint64_t>(s.stride)
                               : static_cast<uint64_t>(s.stride);
  uint64_t span = static_cast<uint64_t>(std::max(b, e) - std::min(b, e));
  return Dim::constant(static_cast<int64_t>((span + step - 1) / step));
}

// strided_slice (§3.0.5): begin/end/strides on every axis or on `axes`; slice_mode "end" or
// "size".
RelStatus strided_slice_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto mode = choice_attr(ctx, "slice_mode", {"end", "size"});
  auto slices = mode ? slice_axes(ctx, data->rank()) : std::nullopt;
  if (!slices) return RelStatus::Failed;
  Shape out = shape_of(data);
  for (const SliceAxis& written : *slices) {
    if (*mode == "end" && written.stride == 0)
      return fail_attr(ctx, "strides",
                       "the stride of axis " + std::to_string(written.axis) + " is 0",
                       "zero stride");
    SliceAxis slice = *mode == "size" ? size_mode_bounds(written) : written;
    auto extent = sliced_extent(ctx, out[slice.axis], slice);
    if (!extent) return RelStatus::Failed;
    out[slice.axis] = *extent;
  }
  return set_output(ctx, out, data->dtype);
}

// strided_set(data, v, begin, end, strides): data's type.
RelStatus strided_set_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto inputs = rel::tensor_inputs(ctx, st);
  if (inputs.empty()) return st;
  return assign_result(ctx, inputs[0]);
}

// slice_like: data's shape with the listed axes (None: the first rank(shape_like)) replaced
// by shape_like's dims, each no larger than data's.
RelStatus slice_like_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *like = in[1];
  if (!known_attr(ctx, "axes")) return RelStatus::Failed;
  std::vector<size_t> axes;
  if (attr_is_none(ctx, "axes")) {
    for (size_t i = 0; i < std::min(data->rank(), like->rank()); ++i) axes.push_back(i);
  } else {
    auto list = int_list(ctx, "axes");
    auto normalized = list ? distinct_axes(ctx, "axes", *list, data->rank()) : std::nullopt;
    if (!normalized) return RelStatus::Failed;
    if (normalized->empty()) return fail_attr(ctx, "axes", "`axes` cannot be empty", "empty");
    axes = *normalized;
  }
  Shape out = shape_of(data);
  for (size_t axis : axes) {
    if (axis >= like->rank())
      return fail_attr(ctx, "axes",
                       "axis " + std::to_string(axis) +
                           " is not a dim of shape_like, which has rank " +
                           std::to_string(like->rank()),
                       "out of range for shape_like", {{1, shape_label(like)}});
    auto want = like->shape[axis].constant_value(), have = data->shape[axis].constant_value();
    if (want && have && *want > *have)
      return fail_inputs(ctx,
                         "cannot slice dim " + std::to_string(axis) + " of data (" +
                             std::to_string(*have) + ") to " + std::to_string(*want),
                         {{0, shape_label(data)}, {1, shape_label(like)}});
    out[axis] = like->shape[axis];
  }
  return set_output(ctx, out, data->dtype);
}

// sliding_window: data[:axis] ++ per window dim floor((d - w + s) / s) ++ window_shape, the
// windows covering the dims from `axis` to the end.
RelStatus sliding_window_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto a = int_attr(ctx, "axis");
  auto axis = a ? rel::normalize_axis(ctx, *a, data->rank(), "axis") : std::nullopt;
  if (!axis) return RelStatus::Failed;
  size_t windowed = data->rank() - *axis;
  auto window = positive_list(ctx, "window_shape", windowed);
  auto strides = window ? positive_list(ctx, "strides", windowed) : std::nullopt;
  if (!strides) return RelStatus::Failed;
  Shape out(data->shape.begin(), data->shape.begin() + *axis);
  for (size_t i = 0; i < windowed; ++i) {
    const Dim& d = data->shape[*axis + i];
    int64_t w = (*window)[i], s = (*strides)[i];
    if (auto c = d.constant_value(); c && *c < w)
      return fail_attr(ctx, "window_shape",
                       "window " + std::to_string(w) + " is larger than dim " +
                           std::to_string(*axis + i) + " of data (" + std::to_string(*c) + ")",
                       "too large", {{0, shape_label(data)}});
    out.push_back(d.is_any() ? Dim::any() : *floordiv(d - w + s, s));
  }
  for (int64_t w : *window) out.push_back(Dim::constant(w));
  return set_output(ctx, out, data->dtype);
}

}  // namespace

void register_transform_slice_relations(RelationTable& t) {
  register_relation(t, "strided_slice", strided_slice_rel);
  register_relation(t, "strided_set", strided_set_rel);
  register_relation(t, "slice_like", slice_like_rel);
  register_relation(t, "sliding_window", sliding_window_rel);
}

}  // namespace relay
