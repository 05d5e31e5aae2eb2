// Tensors as numpy 1.24 prints them: `format_tensor` is `str(array)`, `format_tensor_repr`
// is `repr(array)`, character for character, under numpy's default print options
// (or the ones given). Users compare the interpreter's output with numpy's, so matching
// it exactly (float digits, column alignment, line wrapping, summarisation) matters more
// than any house style.
//
// bfloat16, which numpy lacks, prints like the other float types with bfloat16's own
// shortest digits, and its repr names `dtype=bfloat16`.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "interpreter/runtime/ndarray.h"

namespace relay::rt {

// numpy.set_printoptions' fields that apply to these dtypes (floatmode is numpy's
// default, 'maxprec': at most `precision` digits, fewer when they already round-trip).
struct PrintOptions {
  int precision = 8;
  int64_t threshold = 1000;  // more elements than this: show only the edges
  int edgeitems = 3;         // per dimension, at each end, when summarising
  int linewidth = 75;
  bool suppress = false;     // never switch to scientific because of small values
};

std::string format_tensor(const NDArray& a, const PrintOptions& options = {});
std::string format_tensor_repr(const NDArray& a, const PrintOptions& options = {});
// One element (row-major `flat_index`) as numpy's str() of a scalar of the tensor's dtype:
// `1.5`, `1e-05`, `True`.
std::string format_element(const NDArray& a, int64_t flat_index);

// Elements of `a` as format_tensor writes them inside the array (numpy's array2string:
// at most `options.precision` digits after the point, one format chosen from the elements
// printed), without the padding that lines them up in text: for tables of the same numbers.
std::function<std::string(int64_t flat_index)> array_element_formatter(const NDArray& a,
                                                                      const PrintOptions& options = {});

}  // namespace relay::rt
