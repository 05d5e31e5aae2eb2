// Neural-network operators: convolutions, pooling, normalisations, Gemm/MatMul, softmax.
// ONNX lays out data as N, C, spatial... and weights as O, I/group, kernel... — Relay's
// NCW/NCHW/NCDHW and OIW/OIHW/OIDHW, so no layout changes are needed.
#include <cstring>
#include <numeric>

#include "importer/onnx/convert.h"
#include "importer/onnx/fold.h"
#include "lang/syntax/printer.h"

namespace relay::importer::onnx {

namespace {

// Padding for `spatial` dims: explicit `pads` (begins then ends, as Relay's padding), or
// computed from auto_pad over the input's static spatial sizes.
// One positive value per spatial axis, or ImportError (the attributes come from the file).
void check_window(const char* what, const std::vector<int64_t>& v, size_t spatial) {
  if (v.size() != spatial)
    throw ImportError(std::string("`") + what + "` must have " + std::to_string(spatial) + " value(s), not " +
                      std::to_string(v.size()));
  for (int64_t x : v)
    if (x <= 0) throw ImportError(std::string("`") + what + "` must be positive");
}

std::vector<int64_t> conv_padding(NodeContext& c, size_t spatial, const std::vector<int64_t>& kernel,
                                  const std::vector<int64_t>& strides, const std::vector<int64_t>& dilations) {
  check_window("kernel_shape", kernel, spatial);
  check_window("strides", strides, spatial);
  check_window("dilations", dilations, spatial);
  std::string auto_pad = c.attr_string("auto_pad", "NOTSET");
  if (auto_pad == "NOTSET") {
    std::vector<int64_t> pads = c.attr_ints("pads", std::vector<int64_t>(2 * spatial, 0));
    if (pads.size() != 2 * spatial) throw ImportError("`pads` must have " + std::to_string(2 * spatial) + " values");
    for (int64_t p : pads)
      if (p < 0) throw ImportError("negative `pads` are not supported");
    return pads;
  }
  std::vector<int64_t> pads(2 * spatial, 0);
  if (auto_pad == "VALID") return pads;
  if (auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER") throw ImportError("unknown auto_pad `" + auto_pad + "`");
  std::vector<int64_t> shape = c.static_shape(0, "auto_pad=" + auto_pad);
  if (shape.size() != spatial + 2) throw ImportError("the data's rank does not match the kernel's");
  for (size_t i = 0; i < spatial; ++i) {
    int64_t in = shape[2 + i], out = (in + strides[i] - 1) / strides[i];
    int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - in);
    int64_t small = total / 2, large = total - small;
    pads[i] = auto_pad == "SAME_UPPER" ? small : large;
    pads[i + spatial] = auto_pad == "SAME_UPPER" ? large : small;
  }
  return pads;
}

const char* spatial_suffix(size_t spatial) {
  switch (spatial) {
    case 1: return "1d";
    case 2: return "2d";
    case 3: return "3d";
    default: throw ImportError("only 1-D, 2-D and 3-D data are supported, not " + std::to_string(spatial) + "-D");
  }
}

const char* data_layout(size_t spatial) { return spatial == 1 ? "NCW" : spatial == 2 ? "NCHW" : "NCDHW"; }

std::string maybe_bias(NodeContext& c, std::string out) {
  if (c.has_input(2)) out = call("nn.bias_add", {out, c.atom(2)}, "axis=1");
  return out;
}

void conv(NodeContext& c) {
  std::vector<int64_t> w = c.static_shape(1, "Conv");
  if (w.size() < 3) throw ImportError("Conv's weight must have rank 3 or more");
  size_t spatial = w.size() - 2;
  std::vector<int64_t> kernel = c.attr_ints("kernel_shape", std::vector<int64_t>(w.begin() + 2, w.end()));
  std::vector<int64_t> strides = c.attr_ints("strides", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> dilations = c.attr_ints("dilations", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> pads = conv_padding(c, spatial, kernel, strides, dilations);
  std::string suffix = spatial_suffix(spatial);
  std::string attrs = "strides=" + ints_text(strides) + ", padding=" + ints_text(pads) + ", dilation=" +
                      ints_text(dilations) + ", groups=" + std::to_string(c.attr_int("group", 1)) +
                      ", channels=" + std::to_string(w[0]) + ", kernel_size=" + ints_text(kernel);
  c.emit_output(0, maybe_bias(c, call("nn.conv" + suffix, {c.atom(0), c.atom(1)}, attrs)));
}

void conv_transpose(NodeContext& c) {
  std::vector<int64_t> w = c.static_shape(1, "ConvTranspose");
  if (w.size() != 4 && w.size() != 3) throw ImportError("ConvTranspose is supported for 1-D and 2-D data");
  size_t spatial = w.size() - 2;
  int64_t group = c.attr_int("group", 1);
  std::vector<int64_t> kernel = c.attr_ints("kernel_shape", std::vector<int64_t>(w.begin() + 2, w.end()));
  std::vector<int64_t> strides = c.attr_ints("strides", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> dilations = c.attr_ints("dilations", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> output_padding = c.attr_ints("output_padding", std::vector<int64_t>(spatial, 0));
  if (c.has_attr("output_shape") || c.attr_string("auto_pad", "NOTSET") != "NOTSET")
    throw ImportError("ConvTranspose with `output_shape` or `auto_pad` is not supported; give `pads`");
  std::vector<int64_t> pads = conv_padding(c, spatial, kernel, strides, dilations);
  std::string attrs = "channels=" + std::to_string(w[1] * group) + ", kernel_size=" + ints_text(kernel) +
                      ", strides=" + ints_text(strides) + ", output_padding=" + ints_text(output_padding) +
                      ", padding=" + ints_text(pads) + ", dilation=" + ints_text(dilations) +
                      ", groups=" + std::to_string(group);
  c.emit_output(0, maybe_bias(c, call(std::string("nn.conv") + spatial_suffix(spatial) + "_transpose",
                                      {c.atom(0), c.atom(1)}, attrs)));
}

void pool(NodeContext& c, bool is_max) {
  size_t rank = c.rank(0);
  if (rank < 3) throw ImportError("pooling needs data of rank 3 or more");
  if (c.node().outputs.size() > 1 && !c.node().outputs[1].empty())
    throw ImportError("MaxPool's second output (the indices) is not supported");
  size_t spatial = rank - 2;
  std::vector<int64_t> kernel = c.attr_ints("kernel_shape");
  if (kernel.size() != spatial) throw ImportError("`kernel_shape` must have " + std::to_string(spatial) + " values");
  std::vector<int64_t> strides = c.attr_ints("strides", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> dilations = c.attr_ints("dilations", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> pads = conv_padding(c, spatial, kernel, strides, dilations);
  std::string attrs = "pool_size=" + ints_text(kernel) + ", strides=" + ints_text(strides) + ", dilation=" +
                      ints_text(dilations) + ", padding=" + ints_text(pads) + ", layout=\"" + data_layout(spatial) +
                      "\", ceil_mode=" + (c.attr_int("ceil_mode", 0) ? "True" : "False");
  if (!is_max) attrs += std::string(", count_include_pad=") + (c.attr_int("count_include_pad", 0) ? "True" : "False");
  c.emit_output(0, call(std::string(is_max ? "nn.max_pool" : "nn.avg_pool") + spatial_suffix(spatial), {c.atom(0)}, attrs));
}
void max_pool(NodeContext& c) { pool(c, true); }
void average_pool(NodeContext& c) { pool(c, false); }

void global_pool(NodeContext& c, bool is_max) {
  size_t rank = c.rank(0);
  if (rank < 3) throw ImportError("global pooling needs data of rank 3 or more");
  if (rank == 4) {
    c.emit_output(0, call(is_max ? "nn.global_max_pool2d" : "nn.global_avg_pool2d", {c.atom(0)}));
    return;
  }
  std::vector<int64_t> axes;
  for (size_t i = 2; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
  c.emit_output(0, call(is_max ? "max" : "mean", {c.atom(0)}, "axis=" + ints_text(axes) + ", keepdims=True"));
}
void global_average_pool(NodeContext& c) { global_pool(c, false); }
void global_max_pool(NodeContext& c) { global_pool(c, true); }

void batch_norm(NodeContext& c) {
  if (c.attr_int("training_mode", 0)) throw ImportError("BatchNormalization in training mode is not supported");
  for (size_t i = 1; i < c.node().outputs.size(); ++i)
    if (!c.node().outputs[i].empty()) throw ImportError("BatchNormalization's running statistics outputs are not supported");
  std::string bn = call("nn.batch_norm", {c.atom(0), c.atom(1), c.atom(2), c.atom(3), c.atom(4)},
                        "epsilon=" + float_text(c.attr_float("epsilon", 1e-5f)));
  c.emit_output(0, bn + ".0");
}

void instance_norm(NodeContext& c) {
  c.emit_output(0, call("nn.instance_norm", {c.atom(0), c.atom(1), c.atom(2)},
                        "epsilon=" + float_text(c.attr_float("epsilon", 1e-5f))));
}

void lrn(NodeContext& c) {
  c.emit_output(0, call("nn.lrn", {c.atom(0)},
                        "size=" + std::to_string(c.attr_int("size", 1)) + ", axis=1, bias=" +
                            float_text(c.attr_float("bias", 1.0f)) + ", alpha=" +
                            float_text(c.attr_float("alpha", 1e-4f)) + ", beta=" + float_text(c.attr_float("beta", 0.75f))));
}

// Softmax and LogSoftmax. Before opset 13 the input is coerced to 2-D at `axis` (default
// 1) and normalised over the second dimension; from 13 on over one axis (default -1).
void softmax_like(NodeContext& c, const char* op) {
  size_t rank = c.rank(0);
  if (c.opset() >= 13) {
    c.emit_output(0, call(op, {c.atom(0)}, "axis=" + std::to_string(c.attr_int("axis", -1))));
    return;
  }
  int64_t axis = rank == 0 ? 0 : normalize_axis(c.attr_int("axis", 1), rank);
  if (axis == static_cast<int64_t>(rank) - 1) {
    c.emit_output(0, call(op, {c.atom(0)}, "axis=-1"));
    return;
  }
  std::vector<int64_t> shape = c.static_shape(0, std::string(op) + " over axes " + std::to_string(axis) + "..");
  int64_t outer = saturating_product(shape, 0, static_cast<size_t>(axis));
  int64_t inner = saturating_product(shape, static_cast<size_t>(axis));
  std::string flat = call("reshape", {c.atom(0)}, "newshape=" + ints_text({outer, inner}));
  c.emit_output(0, call("reshape", {call(op, {flat}, "axis=1")}, "newshape=" + ints_text(shape)));
}
void softmax(NodeContext& c) { softmax_like(c, "nn.softmax"); }
void log_softmax(NodeContext& c) { softmax_like(c, "nn.log_softmax"); }

// A 2-D constant transposed at import time (a weight stored K x N for nn.dense's N x K).
RValue transposed_constant(const Constant& k) {
  Constant t{k.dtype, {k.shape[1], k.shape[0]}, std::string(k.bytes.size(), '\0')};
  size_t w = element_bytes(k.dtype);
  for (int64_t i = 0; i < k.shape[0]; ++i)
    for (int64_t j = 0; j < k.shape[1]; ++j)
      std::memcpy(t.bytes.data() + (j * k.shape[0] + i) * w, k.bytes.data() + (i * k.shape[1] + j) * w, w);
  RValue v;
  v.constant = std::make_shared<const Constant>(std::move(t));
  return v;
}

// The N x K weight of nn.dense for a K x N matrix input `i` (transposed unless `already`).
std::string dense_weight(NodeContext& c, size_t i, bool already_nk) {
  if (already_nk) return c.atom(i);
  if (c.is_constant(i) && c.input(i).constant->shape.size() == 2) {
    RValue t = transposed_constant(*c.input(i).constant);
    return c.builder().atom(t);
  }
  return call("transpose", {c.atom(i)}, "axes=[1, 0]");
}

void gemm(NodeContext& c) {
  if (c.rank(0) != 2 || c.rank(1) != 2) throw ImportError("Gemm's A and B must be matrices");
  std::string a = c.atom(0);
  if (c.attr_int("transA", 0)) a = call("transpose", {a}, "axes=[1, 0]");
  std::string out = call("nn.dense", {a, dense_weight(c, 1, c.attr_int("transB", 0) != 0)}, "units=None");
  double alpha = c.attr_float("alpha", 1.0f), beta = c.attr_float("beta", 1.0f);
  if (alpha != 1.0) out = call("multiply", {out, format_float_literal(alpha, c.dtype(0))});
  if (c.has_input(2) && beta != 0.0) {
    std::string bias = c.atom(2);
    if (beta != 1.0) bias = call("multiply", {bias, format_float_literal(beta, c.dtype(0))});
    out = call("add", {out, bias});
  }
  c.emit_output(0, out);
}

// numpy.matmul: a matrix product over the last two axes, batch axes broadcast.
void matmul(NodeContext& c) {
  size_t ra = c.rank(0), rb = c.rank(1);
  if (ra == 0 || rb == 0) throw ImportError("MatMul's operands must have rank 1 or more");
  if (rb <= 2) {
    // (..., K) x (K, N) or (K): nn.dense takes any leading axes of `a`.
    std::string a = c.atom(0);
    if (ra == 1) a = call("expand_dims", {a}, "axis=0");
    std::string b = rb == 1 ? call("expand_dims", {c.atom(1)}, "axis=0") : dense_weight(c, 1, false);
    std::string out = call("nn.dense", {a, b}, "units=None");
    if (rb == 1) out = call("squeeze", {out}, "axis=[-1]");
    if (ra == 1) out = call("squeeze", {out}, "axis=[" + std::string(rb == 1 ? "0" : "-2") + "]");
    c.emit_output(0, out);
    return;
  }
  // Batched: broadcast the batch axes, flatten them, nn.batch_matmul, restore them.
  std::vector<int64_t> sa = c.static_shape(0, "a batched MatMul"), sb = c.static_shape(1, "a batched MatMul");
  bool vec_a = ra == 1;
  if (vec_a) sa.insert(sa.begin(), 1);
  std::vector<int64_t> batch_a(sa.begin(), sa.end() - 2), batch_b(sb.begin(), sb.end() - 2);
  std::vector<int64_t> batch = broadcast_shapes(batch_a, batch_b);
  int64_t nbatch = saturating_product(batch);
  int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  auto to3 = [&](std::string x, const std::vector<int64_t>& own_batch, int64_t r, int64_t q) {
    std::vector<int64_t> full = batch;
    full.push_back(r);
    full.push_back(q);
    if (own_batch != batch) x = call("broadcast_to", {x}, "shape=" + ints_text(full));
    return call("reshape", {x}, "newshape=" + ints_text({nbatch, r, q}));
  };
  std::string a = c.atom(0);
  if (vec_a) a = call("expand_dims", {a}, "axis=0");
  std::string a3 = to3(a, batch_a, m, k), b3 = to3(c.atom(1), batch_b, k, n);
  std::vector<int64_t> out_shape = batch;
  if (!vec_a) out_shape.push_back(m);
  out_shape.push_back(n);
  c.emit_output(0, call("reshape", {call("nn.batch_matmul", {a3, b3}, "transpose_a=False, transpose_b=False")},
                        "newshape=" + ints_text(out_shape)));
}

void depth_to_space(NodeContext& c) {
  std::string mode = c.attr_string("mode", "DCR");
  if (mode != "DCR" && mode != "CRD") throw ImportError("DepthToSpace mode must be DCR or CRD");
  c.emit_output(0, call("nn.depth_to_space", {c.atom(0)},
                        "block_size=" + std::to_string(c.attr_int("blocksize", 1)) + ", mode=\"" + mode + "\""));
}

void space_to_depth(NodeContext& c) {
  c.emit_output(0, call("nn.space_to_depth", {c.atom(0)}, "block_size=" + std::to_string(c.attr_int("blocksize", 1))));
}

}  // namespace

void register_nn(ConverterTable& t) {
  t.add("Conv", conv); t.add("ConvTranspose", conv_transpose);
  t.add("MaxPool", max_pool); t.add("AveragePool", average_pool);
  t.add("GlobalAveragePool", global_average_pool); t.add("GlobalMaxPool", global_max_pool);
  t.add("BatchNormalization", batch_norm); t.add("InstanceNormalization", instance_norm);
  t.add("LRN", lrn);
  t.add("Softmax", softmax); t.add("LogSoftmax", log_softmax);
  t.add("Gemm", gemm); t.add("MatMul", matmul);
  t.add("DepthToSpace", depth_to_space); t.add("SpaceToDepth", space_to_depth);
}

}  // namespace relay::importer::onnx
