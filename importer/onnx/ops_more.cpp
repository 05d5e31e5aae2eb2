// Further operators: selection and indexing (TopK, GatherElements, GatherND, OneHot,
// Hardmax, Trilu, EyeLike), scans (CumSum), Resize/Upsample, bit shifts, CastLike,
// Shrink, and LayerNormalization over several axes (spelt out: Relay's layer_norm
// normalises one axis).
#include <algorithm>
#include <cmath>

#include "importer/onnx/convert.h"
#include "importer/onnx/fold.h"
#include "lang/syntax/printer.h"

namespace relay::importer::onnx {

namespace {

std::string literal_of(DataType t, double v) {
  return literal_text(t, v);
}

void cast_like(NodeContext& c) {
  c.emit_output(0, call("cast", {c.atom(0)}, "dtype=" + dtype_attr(c.dtype(1))));
}

void shrink(NodeContext& c) {
  DataType t = c.dtype(0);
  double lambd = c.attr_float("lambd", 0.5f), bias = c.attr_float("bias", 0.0f);
  std::string x = c.atom(0);
  std::string below = call("less", {x, literal_of(t, -lambd)}), above = call("greater", {x, literal_of(t, lambd)});
  c.emit_output(0, call("where", {below, call("add", {x, literal_of(t, bias)}),
                                  call("where", {above, call("subtract", {x, literal_of(t, bias)}),
                                                 call("zeros_like", {x})})}));
}

void bit_shift(NodeContext& c) {
  std::string dir = c.attr_string("direction", "");
  if (dir != "LEFT" && dir != "RIGHT") throw ImportError("BitShift needs direction LEFT or RIGHT");
  c.emit_output(0, call(dir == "LEFT" ? "left_shift" : "right_shift", {c.atom(0), c.atom(1)}));
}

void cumsum(NodeContext& c) {
  int64_t axis = normalize_axis(c.constant(1, "CumSum's axis").get_int(0), c.rank(0));
  std::string x = c.atom(0);
  bool reverse = c.attr_int("reverse", 0) != 0;
  std::string ax = "axis=" + std::to_string(axis);
  if (reverse) x = call("reverse", {x}, ax);
  std::string out = call("cumsum", {x}, ax + ", exclusive=" + (c.attr_int("exclusive", 0) ? "True" : "False"));
  if (reverse) out = call("reverse", {out}, ax);
  c.emit_output(0, out);
}

void top_k(NodeContext& c) {
  int64_t k = c.opset() < 10 ? c.attr_int("k", 1) : c.constant(1, "TopK's k").get_int(0);
  int64_t axis = normalize_axis(c.attr_int("axis", -1), c.rank(0));
  if (!c.attr_int("sorted", 1)) throw ImportError("TopK with sorted=0 is not supported");
  std::string both = c.let(call("topk", {c.atom(0)},
                                "k=" + std::to_string(k) + ", axis=" + std::to_string(axis) + ", ret_type=\"both\", is_ascend=" +
                                    (c.attr_int("largest", 1) ? "False" : "True") + ", dtype=\"int64\""));
  c.emit_output(0, both + ".0");
  c.emit_output(1, both + ".1");
}

// Negative indices count from the end of `axis` (ONNX); Relay's gather needs them in
// range.
std::string wrapped_indices(NodeContext& c, size_t data, size_t indices, int64_t axis) {
  std::vector<int64_t> shape = c.static_shape(data, "negative index handling");
  DataType t = c.dtype(indices);
  std::string idx = c.atom(indices);
  return call("where", {call("less", {idx, literal_of(t, 0)}), call("add", {idx, literal_of(t, static_cast<double>(shape[static_cast<size_t>(axis)]))}), idx});
}

void gather_elements(NodeContext& c) {
  int64_t axis = normalize_axis(c.attr_int("axis", 0), c.rank(0));
  c.emit_output(0, call("gather", {c.atom(0), wrapped_indices(c, 0, 1, axis)}, "axis=" + std::to_string(axis)));
}

void gather_nd(NodeContext& c) {
  // ONNX puts the index tuple on the last axis of `indices`, Relay on the first.
  size_t r = c.rank(1);
  if (r == 0) throw ImportError("GatherND's indices must have rank 1 or more");
  std::vector<int64_t> perm{static_cast<int64_t>(r) - 1};
  for (size_t i = 0; i + 1 < r; ++i) perm.push_back(static_cast<int64_t>(i));
  std::vector<int64_t> ishape = c.static_shape(1, "GatherND");
  c.emit_output(0, call("gather_nd", {c.atom(0), call("transpose", {c.atom(1)}, "axes=" + ints_text(perm))},
                        "batch_dims=" + std::to_string(c.attr_int("batch_dims", 0)) +
                            ", index_rank=" + std::to_string(ishape.back())));
}

void one_hot(NodeContext& c) {
  int64_t depth = c.constant(1, "OneHot's depth").get_int(0);
  const Constant& values = c.constant(2, "OneHot's values");
  if (values.size() != 2) throw ImportError("OneHot's values must hold [off, on]");
  DataType t = values.dtype;
  // Negative indices count from the end (depth + i).
  DataType it = c.dtype(0);
  std::string idx = c.atom(0);
  idx = call("where", {call("less", {idx, literal_of(it, 0)}), call("add", {idx, literal_of(it, static_cast<double>(depth))}), idx});
  c.emit_output(0, call("one_hot", {idx, literal_of(t, values.get_double(1)), literal_of(t, values.get_double(0))},
                        "depth=" + std::to_string(depth) + ", axis=" + std::to_string(c.attr_int("axis", -1)) +
                            ", dtype=" + dtype_attr(t)));
}

void hardmax(NodeContext& c) {
  if (c.opset() < 13) throw ImportError("Hardmax before opset 13 (2-D coercion) is not supported");
  size_t rank = c.rank(0);
  int64_t axis = normalize_axis(c.attr_int("axis", -1), rank);
  std::vector<int64_t> shape = c.static_shape(0, "Hardmax");
  DataType t = c.dtype(0);
  std::string arg = call("argmax", {c.atom(0)}, "axis=[" + std::to_string(axis) + "]");
  c.emit_output(0, call("one_hot", {arg, literal_of(t, 1), literal_of(t, 0)},
                        "depth=" + std::to_string(shape[static_cast<size_t>(axis)]) + ", axis=" + std::to_string(axis) +
                            ", dtype=" + dtype_attr(t)));
}

void trilu(NodeContext& c) {
  std::string k = c.has_input(1) ? c.atom(1) : "0i64";
  c.emit_output(0, call("trilu", {c.atom(0), k}, std::string("upper=") + (c.attr_int("upper", 1) ? "True" : "False")));
}

void eye_like(NodeContext& c) {
  std::vector<int64_t> shape = c.static_shape(0, "EyeLike");
  if (shape.size() != 2) throw ImportError("EyeLike needs a 2-D input");
  DataType t = c.dtype(0);
  if (c.has_attr("dtype")) {
    std::optional<DataType> d = relay_dtype(static_cast<int32_t>(c.attr_int("dtype", 1)));
    if (!d) throw ImportError("EyeLike's dtype is not supported");
    t = *d;
  }
  int64_t k = c.attr_int("k", 0);
  if (Constant{t, shape, {}}.size() > kMaxFoldedElements * 256) throw ImportError("EyeLike is too large to fold");
  std::vector<double> values(static_cast<size_t>(shape[0] * shape[1]), 0.0);
  for (int64_t i = 0; i < shape[0]; ++i)
    if (i + k >= 0 && i + k < shape[1]) values[static_cast<size_t>(i * shape[1] + i + k)] = 1.0;
  c.set_constant(0, Constant::from_doubles(values, shape, t));
}

// Resize (opset 10+) and Upsample: image.resize1d/2d/3d on NC... data, sizes from
// `sizes` or `scales` (which must keep N and C).
void resize_to(NodeContext& c, std::vector<int64_t> out_shape, const std::string& mode) {
  size_t rank = c.rank(0);
  if (rank < 3 || rank > 5) throw ImportError("Resize supports 3-D to 5-D data");
  std::vector<int64_t> in = c.static_shape(0, "Resize");
  if (out_shape.size() != rank) throw ImportError("Resize's sizes must have one value per axis");
  if (out_shape[0] != in[0] || out_shape[1] != in[1]) throw ImportError("Resize of the batch or channel axis is not supported");
  std::string method = mode == "nearest" ? "nearest_neighbor" : mode;
  if (method != "nearest_neighbor" && method != "linear" && method != "cubic")
    throw ImportError("Resize mode `" + mode + "` is not supported");
  std::string ctm = c.attr_string("coordinate_transformation_mode", c.opset() < 11 ? "asymmetric" : "half_pixel");
  if (ctm != "half_pixel" && ctm != "align_corners" && ctm != "asymmetric" && ctm != "pytorch_half_pixel" &&
      ctm != "tf_half_pixel_for_nn")
    throw ImportError("coordinate_transformation_mode `" + ctm + "` is not supported");
  std::string rounding = c.attr_string("nearest_mode", c.opset() < 11 ? "floor" : "round_prefer_floor");
  if (rounding != "round_prefer_floor" && rounding != "round_prefer_ceil" && rounding != "floor" && rounding != "ceil")
    throw ImportError("nearest_mode `" + rounding + "` is not supported");
  if (method != "nearest_neighbor") rounding = "";
  std::vector<int64_t> size(out_shape.begin() + 2, out_shape.end());
  const char* op = rank == 3 ? "image.resize1d" : rank == 4 ? "image.resize2d" : "image.resize3d";
  const char* layout = rank == 3 ? "NCW" : rank == 4 ? "NCHW" : "NCDHW";
  std::string attrs = "size=" + ints_text(size) + ", layout=\"" + layout + "\", method=\"" + method +
                      "\", coordinate_transformation_mode=\"" + ctm + "\", rounding_method=\"" + rounding +
                      "\", cubic_alpha=" + float_text(c.attr_float("cubic_coeff_a", -0.75f)) +
                      ", cubic_exclude=" + std::to_string(c.attr_int("exclude_outside", 0));
  c.emit_output(0, call(op, {c.atom(0)}, attrs));
}

std::vector<int64_t> scaled(const std::vector<int64_t>& in, const std::vector<double>& scales) {
  if (scales.size() != in.size()) throw ImportError("Resize's scales must have one value per axis");
  std::vector<int64_t> out;
  for (size_t i = 0; i < in.size(); ++i) {
    double d = std::floor(static_cast<double>(in[i]) * scales[i]);
    if (!(d >= 0 && d < 1e12)) throw ImportError("Resize's scales give a size of " + std::to_string(d));
    out.push_back(static_cast<int64_t>(d));
  }
  return out;
}

void resize(NodeContext& c) {
  if (c.attr_int("antialias", 0)) throw ImportError("Resize with antialias is not supported");
  if (c.has_attr("axes")) throw ImportError("Resize with `axes` is not supported");
  std::string mode = c.attr_string("mode", "nearest");
  std::vector<int64_t> in = c.static_shape(0, "Resize");
  if (c.opset() < 11) {
    resize_to(c, scaled(in, c.constant(1, "Resize's scales").doubles()), mode);
    return;
  }
  // `sizes` when given (an empty tensor counts as absent), else `scales`.
  if (c.has_input(3) && !(c.is_constant(3) && c.input(3).constant->size() == 0)) {
    resize_to(c, c.constant(3, "Resize's sizes").ints(), mode);
    return;
  }
  if (!c.has_input(2)) throw ImportError("Resize needs scales or sizes");
  resize_to(c, scaled(in, c.constant(2, "Resize's scales").doubles()), mode);
}

void upsample(NodeContext& c) {
  std::vector<int64_t> in = c.static_shape(0, "Upsample");
  std::vector<double> scales;
  if (c.opset() < 9) {
    for (float f : c.attr_floats("scales")) scales.push_back(f);
  } else {
    scales = c.constant(1, "Upsample's scales").doubles();
  }
  std::string mode = c.attr_string("mode", "nearest");
  resize_to(c, scaled(in, scales), mode);
}

// (x - mean) / sqrt(var + eps) * scale + bias over axes [axis, rank).
void layer_norm_general(NodeContext& c) {
  size_t rank = c.rank(0);
  int64_t axis = normalize_axis(c.attr_int("axis", -1), rank);
  bool statistics = false;  // the optional Mean and InvStdDev outputs are wanted
  for (size_t i = 1; i < c.node().outputs.size(); ++i) statistics |= !c.node().outputs[i].empty();
  DataType t = c.dtype(0);
  std::string x = c.atom(0);
  if (axis == static_cast<int64_t>(rank) - 1 && !statistics) {
    std::string beta = c.has_input(2) ? c.atom(2) : call("zeros_like", {c.atom(1)});
    c.emit_output(0, call("nn.layer_norm", {x, c.atom(1), beta},
                          "axis=-1, epsilon=" + float_text(c.attr_float("epsilon", 1e-5f))));
    return;
  }
  std::vector<int64_t> axes;
  for (int64_t a = axis; a < static_cast<int64_t>(rank); ++a) axes.push_back(a);
  std::string ax = "axis=" + ints_text(axes) + ", keepdims=True";
  std::string mean = c.let(call("mean", {x}, ax));
  std::string centered = c.let(call("subtract", {x, mean}));
  std::string var = call("mean", {call("multiply", {centered, centered})}, ax);
  std::string inv = c.let(call("rsqrt", {call("add", {var, literal_of(t, c.attr_float("epsilon", 1e-5f))})}));
  std::string out = call("multiply", {call("multiply", {centered, inv}), c.atom(1)});
  if (c.has_input(2)) out = call("add", {out, c.atom(2)});
  c.emit_output(0, out);
  if (statistics) {
    c.emit_output(1, mean);
    c.emit_output(2, inv);
  }
}

// QuantizeLinear / DequantizeLinear: qnn.quantize / qnn.dequantize with per-tensor or
// per-axis scales and zero points (a missing zero point is 0 of the output type: uint8
// unless given).
void quantize_linear(NodeContext& c) {
  DataType out = DataType::uint_(8);
  std::string zp;
  if (c.has_input(2)) {
    out = c.dtype(2);
    zp = c.atom(2);
  } else {
    zp = format_int_literal(0, DataType::int_(32));
  }
  if (!out.is_int() && !out.is_uint()) throw ImportError("QuantizeLinear to " + dtype_name(out) + " is not supported");
  if (c.has_input(2) && out != DataType::int_(32)) zp = call("cast", {zp}, "dtype=\"int32\"");
  int64_t axis = c.rank(1) == 0 ? -1 : c.attr_int("axis", 1);
  c.emit_output(0, call("qnn.quantize", {c.atom(0), c.atom(1), zp},
                        "out_dtype=" + dtype_attr(out) + ", axis=" + std::to_string(axis)));
}

void dequantize_linear(NodeContext& c) {
  std::string zp = c.has_input(2) ? call("cast", {c.atom(2)}, "dtype=\"int32\"") : format_int_literal(0, DataType::int_(32));
  int64_t axis = c.rank(1) == 0 ? -1 : c.attr_int("axis", 1);
  c.emit_output(0, call("qnn.dequantize", {c.atom(0), c.atom(1), zp},
                        "out_dtype=\"float32\", axis=" + std::to_string(axis)));
}

}  // namespace

void register_more(ConverterTable& t) {
  t.add("CastLike", cast_like); t.add("Shrink", shrink); t.add("BitShift", bit_shift); t.add("CumSum", cumsum);
  t.add("TopK", top_k); t.add("GatherElements", gather_elements); t.add("GatherND", gather_nd);
  t.add("OneHot", one_hot); t.add("Hardmax", hardmax); t.add("Trilu", trilu); t.add("EyeLike", eye_like);
  t.add("QuantizeLinear", quantize_linear); t.add("DequantizeLinear", dequantize_linear);
  t.add("Resize", resize); t.add("Upsample", upsample); t.add("LayerNormalization", layer_norm_general);
}

}  // namespace relay::importer::onnx
