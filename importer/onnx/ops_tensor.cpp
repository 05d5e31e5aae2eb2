// Operators that create, reshape, reorder or select tensors. Those whose Relay form
// needs static values (Reshape's shape, Slice's bounds, Pad's widths) read them from
// constant inputs; shape arithmetic over constants folds (fold.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "importer/onnx/convert.h"
#include "importer/onnx/fold.h"
#include "lang/syntax/printer.h"

namespace relay::importer::onnx {

namespace {

int64_t product(const std::vector<int64_t>& v, size_t from = 0, size_t to = SIZE_MAX) {
  return saturating_product(v, from, to);
}

// The value of a TensorProto attribute as a constant (Constant node, ConstantOfShape).
Constant constant_of(const TensorData& t) {
  std::optional<DataType> dtype = relay_dtype(t.elem_type);
  if (!dtype) throw ImportError("tensors of " + elem_type_name(t.elem_type) + " are not supported");
  if (t.external) throw ImportError("tensor `" + t.name + "` is stored in an external file");
  return Constant{*dtype, t.dims, t.bytes};
}

// A small constant of the same bytes and a new shape (Reshape, Squeeze, Unsqueeze).
bool fold_reshape(NodeContext& c, const std::vector<int64_t>& shape) {
  if (!c.is_constant(0) || c.input(0).constant->size() > kMaxFoldedElements) return false;
  const Constant& k = *c.input(0).constant;
  c.set_constant(0, Constant{k.dtype, shape, k.bytes});
  return true;
}

void constant(NodeContext& c) {
  const Node& n = c.node();
  if (const Attribute* a = n.attr("value"); a && a->t) return c.set_constant(0, constant_of(*a->t));
  if (const Attribute* a = n.attr("value_float")) return c.set_constant(0, Constant::from_doubles({a->f}, {}, DataType::float_(32)));
  if (const Attribute* a = n.attr("value_int")) return c.set_constant(0, Constant::from_ints({a->i}, {}, DataType::int_(64)));
  if (const Attribute* a = n.attr("value_floats")) {
    std::vector<double> d(a->floats.begin(), a->floats.end());
    return c.set_constant(0, Constant::from_doubles(d, {static_cast<int64_t>(d.size())}, DataType::float_(32)));
  }
  if (const Attribute* a = n.attr("value_ints"))
    return c.set_constant(0, Constant::from_ints(a->ints, {static_cast<int64_t>(a->ints.size())}, DataType::int_(64)));
  throw ImportError("Constant without a supported value (sparse tensors and strings are not supported)");
}

void constant_of_shape(NodeContext& c) {
  std::vector<int64_t> shape = c.constant(0, "ConstantOfShape's shape").ints();
  for (int64_t d : shape)
    if (d < 0) throw ImportError("ConstantOfShape's shape has a negative dimension");
  Constant fill = Constant::from_doubles({0.0}, {}, DataType::float_(32));
  if (const Attribute* a = c.attr("value"); a && a->t) fill = constant_of(*a->t);
  int64_t n = Constant{fill.dtype, shape, {}}.size();  // saturating
  if (fill.bytes.size() < element_bytes(fill.dtype)) throw ImportError("ConstantOfShape's value is empty");
  if (n <= kMaxFoldedElements) {
    std::string bytes;
    for (int64_t i = 0; i < n; ++i) bytes += fill.bytes.substr(0, element_bytes(fill.dtype));
    c.set_constant(0, Constant{fill.dtype, shape, bytes});
    return;
  }
  RValue v;
  v.constant = std::make_shared<const Constant>(Constant{fill.dtype, {}, fill.bytes.substr(0, element_bytes(fill.dtype))});
  c.emit_output(0, call("full", {c.builder().atom(v)}, "shape=" + ints_text(shape) + ", dtype=" + dtype_attr(fill.dtype)));
}

void shape(NodeContext& c) {
  std::vector<int64_t> s = c.static_shape(0, "Shape");
  int64_t rank = static_cast<int64_t>(s.size());
  int64_t start = c.attr_int("start", 0), end = c.attr_int("end", rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  std::vector<int64_t> part(s.begin() + start, s.begin() + end);
  c.set_constant(0, Constant::from_ints(part, {static_cast<int64_t>(part.size())}, DataType::int_(64)));
}

void size(NodeContext& c) {
  c.set_constant(0, Constant::from_ints({product(c.static_shape(0, "Size"))}, {}, DataType::int_(64)));
}

void cast(NodeContext& c) {
  std::optional<DataType> to = relay_dtype(static_cast<int32_t>(c.attr_int("to", 0)));
  if (!to) throw ImportError("Cast to " + elem_type_name(static_cast<int32_t>(c.attr_int("to", 0))) + " is not supported");
  if (c.is_constant(0) && c.input(0).constant->size() <= kMaxFoldedElements) {
    const Constant& k = *c.input(0).constant;
    c.set_constant(0, k.dtype.is_float() ? Constant::from_doubles(k.doubles(), k.shape, *to)
                                         : Constant::from_ints(k.ints(), k.shape, *to));
    return;
  }
  c.emit_output(0, call("cast", {c.atom(0)}, "dtype=" + dtype_attr(*to)));
}

void reshape(NodeContext& c) {
  bool allowzero = c.attr_int("allowzero", 0) != 0;
  if (c.opset() >= 5 && !c.is_constant(1)) {
    // A shape computed at run time: dyn.reshape (0 copies a dim and -1 infers one, as in ONNX).
    if (allowzero) throw ImportError("Reshape with allowzero=1 and a shape computed at run time is not supported");
    c.emit_output(0, call("dyn.reshape", {c.atom(0), c.atom(1)}, "newshape=[]"));
    return;
  }
  std::vector<int64_t> target = c.opset() < 5 ? c.attr_ints("shape") : c.constant(1, "Reshape's shape").ints();
  if (allowzero && std::count(target.begin(), target.end(), 0))
    throw ImportError("Reshape with allowzero=1 and a zero in the shape is not supported");
  if (c.is_constant(0)) {
    // Resolve 0 and -1 here so the constant keeps a concrete shape.
    const Constant& k = *c.input(0).constant;
    std::vector<int64_t> shape = target;
    int64_t infer = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] == 0 && i < k.shape.size()) shape[i] = k.shape[i];
      if (shape[i] == -1) infer = static_cast<int64_t>(i);
    }
    std::vector<int64_t> others = shape;
    if (infer >= 0) others.erase(others.begin() + infer);
    int64_t known = product(others);
    if (infer >= 0 && known > 0) shape[static_cast<size_t>(infer)] = k.size() / known;
    bool concrete = std::all_of(shape.begin(), shape.end(), [](int64_t d) { return d >= 0; });
    if (concrete && product(shape) == k.size() && fold_reshape(c, shape)) return;
  }
  c.emit_output(0, call("reshape", {c.atom(0)}, "newshape=" + ints_text(target)));
}

void flatten(NodeContext& c) {
  size_t rank = c.rank(0);
  int64_t axis = c.attr_int("axis", 1);
  if (axis < 0) axis += static_cast<int64_t>(rank);
  if (axis < 0 || axis > static_cast<int64_t>(rank)) throw ImportError("Flatten's axis is out of range");
  const TensorInfo& t = c.info(0);
  bool leading_static = std::all_of(t.shape.begin(), t.shape.begin() + axis, [](int64_t d) { return d >= 0; });
  bool trailing_static = std::all_of(t.shape.begin() + axis, t.shape.end(), [](int64_t d) { return d >= 0; });
  std::vector<int64_t> shape;
  if (leading_static) shape = {product(t.shape, 0, static_cast<size_t>(axis)), -1};
  else if (trailing_static) shape = {-1, product(t.shape, static_cast<size_t>(axis))};
  else throw ImportError("Flatten needs the static sizes on one side of its axis");
  if (c.is_constant(0) && fold_reshape(c, {shape[0] < 0 ? c.input(0).constant->size() / shape[1] : shape[0],
                                           shape[1] < 0 ? c.input(0).constant->size() / std::max<int64_t>(shape[0], 1) : shape[1]}))
    return;
  c.emit_output(0, call("reshape", {c.atom(0)}, "newshape=" + ints_text(shape)));
}

void transpose(NodeContext& c) {
  size_t rank = c.rank(0);
  std::vector<int64_t> perm(rank);
  std::iota(perm.rbegin(), perm.rend(), 0);
  perm = c.attr_ints("perm", perm);
  c.emit_output(0, call("transpose", {c.atom(0)}, "axes=" + ints_text(perm)));
}

void concat(NodeContext& c) {
  size_t rank = c.rank(0);
  int64_t axis = normalize_axis(c.attr_int("axis", 0), rank);
  bool all_constant = true;
  for (size_t i = 0; i < c.input_count(); ++i) {
    all_constant &= foldable(c, i);
    if (!all_constant) break;
    const Constant& k = *c.input(i).constant;
    const Constant& first = *c.input(0).constant;
    all_constant = k.dtype == first.dtype && k.shape.size() == first.shape.size();
    for (size_t d = 0; all_constant && d < k.shape.size(); ++d)
      all_constant = static_cast<int64_t>(d) == axis || k.shape[d] == first.shape[d];
  }
  if (all_constant) {
    // Concatenate along `axis`: for every outer index, each input's inner block in turn.
    const Constant& first = *c.input(0).constant;
    std::vector<int64_t> shape = first.shape;
    shape[static_cast<size_t>(axis)] = 0;
    for (size_t i = 0; i < c.input_count(); ++i) shape[static_cast<size_t>(axis)] += c.input(i).constant->shape[static_cast<size_t>(axis)];
    int64_t outer = product(first.shape, 0, static_cast<size_t>(axis));
    std::vector<int64_t> values;
    for (int64_t o = 0; o < outer; ++o)
      for (size_t i = 0; i < c.input_count(); ++i) {
        const Constant& k = *c.input(i).constant;
        int64_t block = product(k.shape, static_cast<size_t>(axis));
        for (int64_t j = 0; j < block; ++j) values.push_back(k.get_int(o * block + j));
      }
    c.set_constant(0, Constant::from_ints(values, shape, first.dtype));
    return;
  }
  std::string fields;
  for (size_t i = 0; i < c.input_count(); ++i) fields += (i ? ", " : "") + c.atom(i);
  if (c.input_count() == 1) fields += ",";
  c.emit_output(0, call("concatenate", {"(" + fields + ")"}, "axis=" + std::to_string(axis)));
}

std::vector<int64_t> axes_of(NodeContext& c, const char* what, bool* given) {
  *given = true;
  if (c.opset() >= 13) {
    if (c.has_input(1)) return c.constant(1, what).ints();
    *given = false;
    return {};
  }
  *given = c.has_attr("axes");
  return c.attr_ints("axes");
}

void squeeze(NodeContext& c) {
  bool given = false;
  std::vector<int64_t> axes = axes_of(c, "Squeeze's axes", &given);
  size_t rank = c.rank(0);
  for (int64_t& a : axes) a = normalize_axis(a, rank);
  if (c.is_constant(0)) {
    std::vector<int64_t> shape;
    const Constant& k = *c.input(0).constant;
    for (size_t i = 0; i < k.shape.size(); ++i) {
      bool drop = given ? std::count(axes.begin(), axes.end(), static_cast<int64_t>(i)) > 0 : k.shape[i] == 1;
      if (!drop) shape.push_back(k.shape[i]);
    }
    if (fold_reshape(c, shape)) return;
  }
  c.emit_output(0, given ? call("squeeze", {c.atom(0)}, "axis=" + ints_text(axes)) : call("squeeze", {c.atom(0)}));
}

void unsqueeze(NodeContext& c) {
  bool given = false;
  std::vector<int64_t> axes = axes_of(c, "Unsqueeze's axes", &given);
  if (!given) throw ImportError("Unsqueeze needs axes");
  size_t out_rank = c.rank(0) + axes.size();
  for (int64_t& a : axes) a = normalize_axis(a, out_rank);
  std::sort(axes.begin(), axes.end());
  if (c.is_constant(0)) {
    std::vector<int64_t> shape = c.input(0).constant->shape;
    for (int64_t a : axes) shape.insert(shape.begin() + a, 1);
    if (fold_reshape(c, shape)) return;
  }
  std::string x = c.atom(0);
  for (int64_t a : axes) x = call("expand_dims", {x}, "axis=" + std::to_string(a));
  c.emit_output(0, x);
}

void gather(NodeContext& c) {
  size_t rank = c.rank(0);
  int64_t axis = normalize_axis(c.attr_int("axis", 0), rank);
  if (c.is_constant(0) && foldable(c, 1) && c.input(0).constant->size() <= kMaxFoldedElements) {
    const Constant& data = *c.input(0).constant;
    const Constant& idx = *c.input(1).constant;
    int64_t outer = product(data.shape, 0, static_cast<size_t>(axis)), n = data.shape[static_cast<size_t>(axis)];
    int64_t inner = product(data.shape, static_cast<size_t>(axis) + 1);
    std::vector<int64_t> shape(data.shape.begin(), data.shape.begin() + axis);
    shape.insert(shape.end(), idx.shape.begin(), idx.shape.end());
    shape.insert(shape.end(), data.shape.begin() + axis + 1, data.shape.end());
    size_t w = element_bytes(data.dtype);
    std::string bytes;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < idx.size(); ++k) {
        int64_t i = idx.get_int(k);
        if (i < 0) i += n;
        if (i < 0 || i >= n) throw ImportError("Gather index " + std::to_string(idx.get_int(k)) + " is out of range");
        bytes += data.bytes.substr(static_cast<size_t>((o * n + i) * inner) * w, static_cast<size_t>(inner) * w);
      }
    c.set_constant(0, Constant{data.dtype, shape, bytes});
    return;
  }
  // Negative indices count from the end: "wrap" mode is exact for indices in [-n, n).
  c.emit_output(0, call("take", {c.atom(0), c.atom(1)}, "axis=" + std::to_string(axis) + ", mode=\"wrap\""));
}

void slice(NodeContext& c) {
  size_t rank = c.rank(0);
  std::vector<int64_t> starts, ends, axes, steps;
  if (c.opset() < 10) {
    starts = c.attr_ints("starts");
    ends = c.attr_ints("ends");
    axes = c.attr_ints("axes");
  } else {
    starts = c.constant(1, "Slice's starts").ints();
    ends = c.constant(2, "Slice's ends").ints();
    if (c.has_input(3)) axes = c.constant(3, "Slice's axes").ints();
    if (c.has_input(4)) steps = c.constant(4, "Slice's steps").ints();
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (starts.size() != ends.size() || axes.size() != starts.size() || steps.size() != starts.size())
    throw ImportError("Slice's starts, ends, axes and steps differ in length");
  for (int64_t& a : axes) a = normalize_axis(a, rank);
  if (std::count(steps.begin(), steps.end(), 0)) throw ImportError("Slice's steps cannot be 0");
  // 1-D constant data (shape vectors) folds.
  if (foldable(c, 0) && rank == 1 && starts.size() == 1) {
    const Constant& k = *c.input(0).constant;
    int64_t n = k.shape[0], b = starts[0], e = ends[0], s = steps[0];
    auto clampi = [&](int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v < 0 ? v + n : v, lo), hi); };
    b = s > 0 ? clampi(b, 0, n) : clampi(b, -1, n - 1);
    e = s > 0 ? clampi(e, 0, n) : (e < -n ? -1 : clampi(e, -1, n - 1));
    std::vector<int64_t> values;
    for (int64_t i = b; s > 0 ? i < e : i > e; i += s) values.push_back(k.get_int(i));
    c.set_constant(0, Constant::from_ints(values, {static_cast<int64_t>(values.size())}, k.dtype));
    return;
  }
  // Relay's strided_slice clamps begin and end like numpy, for either sign of step (an
  // end below -dim with a negative step runs through the front, as ONNX means it).
  c.emit_output(0, call("strided_slice", {c.atom(0)},
                        "begin=" + ints_text(starts) + ", end=" + ints_text(ends) + ", strides=" + ints_text(steps) +
                            ", axes=" + ints_text(axes)));
}

void split(NodeContext& c) {
  size_t rank = c.rank(0);
  int64_t axis = normalize_axis(c.attr_int("axis", 0), rank);
  std::vector<int64_t> sizes;
  if (c.opset() >= 13 && c.has_input(1)) sizes = c.constant(1, "Split's sizes").ints();
  else if (c.opset() < 13) sizes = c.attr_ints("split");
  size_t parts = c.node().outputs.size();
  std::string sections;
  if (sizes.empty()) {
    sections = std::to_string(parts);
  } else {
    if (sizes.size() != parts) throw ImportError("Split's sizes do not match its number of outputs");
    std::vector<int64_t> cuts;
    int64_t at = 0;
    for (size_t i = 0; i + 1 < sizes.size(); ++i) cuts.push_back(at += sizes[i]);
    sections = ints_text(cuts);
  }
  std::string whole = c.let(call("split", {c.atom(0)}, "indices_or_sections=" + sections + ", axis=" + std::to_string(axis)));
  for (size_t i = 0; i < parts; ++i) c.emit_output(i, whole + "." + std::to_string(i));
}

void pad(NodeContext& c) {
  size_t rank = c.rank(0);
  std::vector<int64_t> pads;
  double value = 0;
  std::string mode = c.attr_string("mode", "constant");
  if (c.opset() < 11) {
    pads = c.attr_ints(c.opset() < 2 ? "paddings" : "pads");
    value = c.attr_float("value", 0.0f);
  } else {
    pads = c.constant(1, "Pad's pads").ints();
    if (c.has_input(2)) value = c.constant(2, "Pad's constant_value").get_double(0);
    if (c.has_input(3)) {
      std::vector<int64_t> axes = c.constant(3, "Pad's axes").ints();
      if (pads.size() != 2 * axes.size()) throw ImportError("Pad needs two pad values per axis");
      std::vector<int64_t> full(2 * rank, 0);
      for (size_t i = 0; i < axes.size(); ++i) {
        size_t a = static_cast<size_t>(normalize_axis(axes[i], rank));
        full[a] = pads[i];
        full[a + rank] = pads[i + axes.size()];
      }
      pads = full;
    }
  }
  if (pads.size() != 2 * rank) throw ImportError("Pad needs " + std::to_string(2 * rank) + " pad values");
  std::string widths = "[";
  for (size_t i = 0; i < rank; ++i) {
    if (pads[i] < 0 || pads[i + rank] < 0) throw ImportError("negative pads (cropping) are not supported");
    widths += (i ? ", " : "") + ints_text({pads[i], pads[i + rank]});
  }
  widths += "]";
  if (mode != "constant" && mode != "reflect" && mode != "edge") throw ImportError("Pad mode `" + mode + "` is not supported");
  DataType t = c.dtype(0);
  std::string fill = literal_text(t, value);
  c.emit_output(0, call("nn.pad", {c.atom(0), fill}, "pad_width=" + widths + ", pad_mode=\"" + mode + "\""));
}

void expand(NodeContext& c) {
  if (!c.is_constant(1)) {
    // A shape computed at run time. Expand broadcasts both ways (numpy's rule between the
    // data's shape and `shape`), which is what an element-wise product with a tensor of
    // ones of that shape computes; multiplying by one keeps every value (NaN, -0) as it is.
    DataType t = c.dtype(0);
    std::string one = t.is_bool() ? "True" : t.is_float() ? format_float_literal(1, t) : format_int_literal(1, t);
    std::string ones = call("dyn.full", {one, c.atom(1)}, "shape=[], dtype=" + dtype_attr(t));
    c.emit_output(0, call(t.is_bool() ? "logical_and" : "multiply", {c.atom(0), ones}));
    return;
  }
  std::vector<int64_t> target = c.constant(1, "Expand's shape").ints();
  std::vector<int64_t> shape = broadcast_shapes(c.static_shape(0, "Expand"), target);
  c.emit_output(0, call("broadcast_to", {c.atom(0)}, "shape=" + ints_text(shape)));
}

void tile(NodeContext& c) {
  c.emit_output(0, call("tile", {c.atom(0)}, "reps=" + ints_text(c.constant(1, "Tile's repeats").ints())));
}

// Range folds (its length must be known: Relay's arange takes its bounds as attributes,
// which the importer does not write as metadata references).
void range(NodeContext& c) {
  DataType t = c.dtype(0);
  double start = c.constant(0, "Range's start").get_double(0), limit = c.constant(1, "Range's limit").get_double(0),
         delta = c.constant(2, "Range's delta").get_double(0);
  if (delta == 0) throw ImportError("Range's delta is 0");
  double count = std::max(0.0, std::ceil((limit - start) / delta));
  if (!std::isfinite(count)) throw ImportError("Range's bounds are not finite");
  if (count > static_cast<double>(kMaxFoldedElements) * 256) throw ImportError("Range is too long to fold");
  std::vector<double> values;
  for (int64_t i = 0; i < static_cast<int64_t>(count); ++i) values.push_back(start + static_cast<double>(i) * delta);
  c.set_constant(0, Constant::from_doubles(values, {static_cast<int64_t>(values.size())}, t));
}

void dropout(NodeContext& c) {
  if (c.has_input(2) && (!c.is_constant(2) || c.input(2).constant->get_int(0) != 0))
    throw ImportError("Dropout in training mode (random masks) is not supported");
  if (c.node().outputs.size() > 1 && !c.node().outputs[1].empty()) throw ImportError("Dropout's mask output is not supported");
  c.set_output(0, c.input(0));  // inference: the identity
}

}  // namespace

void register_tensor(ConverterTable& t) {
  t.add("Constant", constant); t.add("ConstantOfShape", constant_of_shape); t.add("Shape", shape); t.add("Size", size);
  t.add("Cast", cast); t.add("Reshape", reshape); t.add("Flatten", flatten); t.add("Transpose", transpose);
  t.add("Concat", concat); t.add("Squeeze", squeeze); t.add("Unsqueeze", unsqueeze); t.add("Gather", gather);
  t.add("Slice", slice); t.add("Split", split); t.add("Pad", pad); t.add("Expand", expand); t.add("Tile", tile);
  t.add("Range", range); t.add("Dropout", dropout);
}

}  // namespace relay::importer::onnx
