// §3.8 image.*: resize1d/2d/3d and crop_and_resize (on the shared resize of
// image_resize.cpp), grid_sample, affine_grid and dilation2d, as TOPI 0.14 computes them
// (python/tvm/topi/image/*.py).
#include "interpreter/kernels/image_internal.h"

#include "interpreter/kernels/image_resize.h"
#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

Value resize(const KernelCall& call, std::string_view letters) {
  const NDArray x = call.tensor(0);
  return Value(resize_image(call.op.name, x, letters, call.attrs.get_ints("size"), resize_spec_from_attrs(call.attrs)));
}

Value crop_and_resize(const KernelCall& call) {
  ResizeSpec spec;
  spec.layout = call.attrs.get_string("layout");
  spec.method = call.attrs.get_string("method");
  spec.extrapolation_value = call.attrs.get_double("extrapolation_value", 0.0);
  spec.out_dtype = call.attrs.get_dtype("out_dtype");
  return Value(crop_and_resize_image(call.op.name, call.tensor(0), call.tensor(1), call.tensor(2),
                                     call.attrs.get_ints("crop_size"), spec));
}

}  // namespace

void register_image_kernels(KernelTable& table) {
  register_kernel(table, "image.resize1d", [](const KernelCall& c) { return resize(c, "W"); });
  register_kernel(table, "image.resize2d", [](const KernelCall& c) { return resize(c, "HW"); });
  register_kernel(table, "image.resize3d", [](const KernelCall& c) { return resize(c, "DHW"); });
  register_kernel(table, "image.crop_and_resize", crop_and_resize);
  register_image_sampling_kernels(table);
}

}  // namespace relay::rt
