// Vocabulary shared by the gradient rule files (rules_*.cpp): arithmetic on terms, the
// un-broadcasting every binary rule needs, and attribute text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lang/autodiff/gradient_rule.h"

namespace relay::autodiff {

inline GradientResult grads(std::vector<Term> g) { return GradientResult{std::move(g), {}}; }
inline GradientResult refuse(std::string why) { return GradientResult{{}, std::move(why)}; }

inline Term add(const Term& a, const Term& b) { return call("add", {a, b}); }
inline Term sub(const Term& a, const Term& b) { return call("subtract", {a, b}); }
inline Term mul(const Term& a, const Term& b) { return call("multiply", {a, b}); }
inline Term div(const Term& a, const Term& b) { return call("divide", {a, b}); }
inline Term neg(const Term& a) { return call("negative", {a}); }
inline Term zeros_like(const Term& a) { return call("zeros_like", {a}); }
inline Term ones_like(const Term& a) { return call("ones_like", {a}); }

// `g`, a gradient of the call's (broadcast) output, summed back to input i's shape; `g`
// itself when the input has the output's type.
Term unbroadcast(const GradientCall& c, const Term& g, size_t i);

// `[1, 2]`
std::string int_list(const std::vector<int64_t>& values);

// The dimensions of a tensor type when all are constants.
std::optional<std::vector<int64_t>> static_shape(const TensorTy& t);

// The axes a reduction's `axis` / `exclude` attributes select on a rank-`rank` input,
// normalised and ascending (every axis for `axis=None`).
std::vector<int64_t> reduced_axes(const CallAttrs& attrs, size_t rank);

// `axis` counted from the front (a negative one from the back) of a rank-`rank` tensor.
inline int64_t axis_from_front(int64_t axis, size_t rank) {
  return axis < 0 ? axis + static_cast<int64_t>(rank) : axis;
}

// A per-channel (C) tensor shaped to broadcast along `axis` of a rank-`rank` tensor:
// (C, 1, ..., 1), or itself when `axis` is the last.
Term along_axis(const Term& channels, int64_t axis, size_t rank);
// `sum(t, axis=[axis], exclude=True)`: t summed to one value per channel of `axis`.
Term sum_per_channel(const Term& t, int64_t axis);

// A gradient `g` of a reduction's output, reshaped to keep the reduced axes (size 1) and
// broadcast to the input's shape. Needs the input's shape to be static (nullopt if not).
std::optional<Term> unreduce(const GradientCall& c, const Term& g, const std::vector<int64_t>& axes);

}  // namespace relay::autodiff
