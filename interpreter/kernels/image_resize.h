// TOPI's image resize (python/tvm/topi/image/resize.py, TVM 0.14) over 1, 2 or 3 spatial
// axes: the kernel of image.resize1d/2d/3d and image.crop_and_resize, and exposed here so
// that dyn.image.resize2d (whose size and roi are tensors) shares it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/runtime/ndarray.h"
#include "lang/types/call_attrs.h"

namespace relay::rt {

// Everything of Resize{1,2,3}DAttrs but the target size.
struct ResizeSpec {
  std::string layout = "NCHW";  // any layout whose spatial axes (W; H, W; D, H, W) are primal
  std::string method = "linear";  // nearest_neighbor, linear, cubic
  std::string coordinate_transformation_mode = "half_pixel";
  std::string rounding_method = "round";  // "" picks TOPI's default (round or floor)
  double cubic_alpha = -0.5;
  int64_t cubic_exclude = 0;
  double extrapolation_value = 0.0;
  std::vector<double> roi;  // empty reads as all zeros; used by tf_crop_and_resize only
  std::optional<DataType> out_dtype;  // unset: the data's dtype
};

// The spec of a Resize{1,2,3}DAttrs call (roi None reads as zeros).
ResizeSpec resize_spec_from_attrs(const CallAttrs& attrs);

// Positions in `layout` of the spatial axes named by `letters` ("W", "HW", "DHW"), checked
// against the data's rank; RuntimeError (prefixed by `op`) for a layout without them.
std::vector<size_t> resize_spatial_axes(std::string_view op, const std::string& layout, size_t rank,
                                        std::string_view letters);

// Resizes the spatial axes `letters` of `data` to `sizes` as TOPI's resize1d/2d/3d do:
// coordinates and interpolation in float32, reads clamped to the image, the result cast
// to the output dtype. RuntimeError (naming `op`) for an unknown method/mode or a size
// that does not fit.
NDArray resize_image(std::string_view op, const NDArray& data, std::string_view letters,
                     const std::vector<int64_t>& sizes, const ResizeSpec& spec);

// The samples a resize reads along each spatial axis, which do not depend on the data:
// output coordinate o of the axis reads input coordinates index[o * count + k] with
// weights weight[o * count + k], k < count (1 nearest, 2 linear, 4 cubic), and
// resize_image sums them as acc = 0; acc += inner(k) * weight, the last spatial axis
// innermost, in float32 (the compiler's resize_as_takes builds the same sum from these).
struct ResizeAxisTaps {
  size_t axis = 0;  // the spatial axis's position in the data
  int count = 1;
  std::vector<int64_t> index;
  std::vector<float> weight;
};
// nullopt where resize_image does more than that sum (points outside the image reading
// the extrapolation value, resize3d's cubic_exclude quirk); errors as resize_image's.
std::optional<std::vector<ResizeAxisTaps>> resize_taps(std::string_view op, const Shape& shape, std::string_view letters,
                                                       const std::vector<int64_t>& sizes, const ResizeSpec& spec);

// image.crop_and_resize: for each box b, crops data[box_indices[b]] to the normalised
// (y1, x1, y2, x2) box and resizes it to crop_size (tf_crop_and_resize coordinates; points
// outside the image read extrapolation_value). method "bilinear" or "nearest_neighbor".
NDArray crop_and_resize_image(std::string_view op, const NDArray& data, const NDArray& boxes,
                              const NDArray& box_indices, const std::vector<int64_t>& crop_size,
                              const ResizeSpec& spec);

}  // namespace relay::rt
