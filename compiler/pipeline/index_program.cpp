#include "compiler/pipeline/index_program.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "compiler/graph/window_attrs.h"

namespace relay::compiler {

namespace {

std::vector<int64_t> shape_of(Ty t) { return concrete_shape(t).value_or(std::vector<int64_t>{}); }
DataType dtype_of(Ty t) { return static_cast<const TensorTy*>(t)->dtype; }
bool is_tensor(const Node& n) { return n.type && n.type->kind == TyKind::Tensor; }

bool normalize(int64_t& axis, size_t rank) {
  if (axis < 0) axis += static_cast<int64_t>(rank);
  return axis >= 0 && axis < static_cast<int64_t>(rank);
}

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// strided_slice's per-axis (begin, step), canonicalised as the reference kernel does
// (interpreter/kernels/transform_slice.cpp: topi's CanonicalizeIndex).
bool slice_ranges(const Node& n, const std::vector<int64_t>& shape, std::vector<int64_t>& first,
                  std::vector<int64_t>& step) {
  const size_t rank = shape.size();
  std::vector<int64_t> begin = n.attrs.get_ints("begin"), end = n.attrs.get_ints("end"),
                       strides = n.attrs.get_ints("strides"), axes = n.attrs.get_ints("axes");
  const std::string mode = n.attrs.get_string("slice_mode");
  if (mode != "end" && mode != "size") return false;
  first.assign(rank, 0);
  step.assign(rank, 1);
  if (axes.empty()) {
    if (begin.size() > rank || end.size() > rank || strides.size() > rank) return false;
    strides.resize(rank, 1);
    for (size_t i = begin.size(); i < rank; ++i) begin.push_back(strides[i] > 0 ? 0 : kMax);
    for (size_t i = end.size(); i < rank; ++i) end.push_back(strides[i] < 0 ? 0 : kMax);
    for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
  } else if (begin.size() != axes.size() || end.size() != axes.size() || strides.size() != axes.size()) {
    return false;
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t a = axes[i];
    if (!normalize(a, rank)) return false;
    int64_t b = begin[i], s = strides[i];
    if (mode == "size") s = 1;
    if (s == 0) return false;
    const int64_t d = shape[static_cast<size_t>(a)];
    if (b < 0) b += d;
    b = s < 0 ? std::clamp<int64_t>(b, -1, d - 1) : std::clamp<int64_t>(b, 0, d);
    first[static_cast<size_t>(a)] = b;
    step[static_cast<size_t>(a)] = s;
  }
  return true;
}

// The H and W axes of a 2-D layout (pools, upsampling): both present, none split.
bool spatial_axes(const std::string& layout, size_t rank, int& h, int& w) {
  h = w = -1;
  if (layout.size() != rank) return false;  // letters only: no split axes
  for (size_t i = 0; i < layout.size(); ++i) {
    if (layout[i] < 'A' || layout[i] > 'Z') return false;
    if (layout[i] == 'H') h = static_cast<int>(i);
    if (layout[i] == 'W') w = static_cast<int>(i);
  }
  return h >= 0 && w >= 0;
}

bool pair(const Node& n, const char* attr, int64_t out[2], int64_t fallback) {
  std::vector<int64_t> v = n.attrs.is_none(attr) ? std::vector<int64_t>{} : n.attrs.get_ints(attr);
  if (v.empty()) v = {fallback, fallback};
  if (v.size() == 1) v.push_back(v[0]);
  if (v.size() != 2) return false;
  out[0] = v[0], out[1] = v[1];
  return true;
}

// A pool node's spec from the call's attributes; false when it does not lower.
bool pool_spec(const Node& n, const std::vector<int64_t>& x, loops::PoolSpec& ps, std::string* why) {
  const std::string_view op = n.op->name;
  const bool global = op == "nn.global_max_pool2d" || op == "nn.global_avg_pool2d";
  const bool adaptive = op == "nn.adaptive_max_pool2d" || op == "nn.adaptive_avg_pool2d";
  ps.is_max = op == "nn.max_pool2d" || op == "nn.global_max_pool2d" || op == "nn.adaptive_max_pool2d";
  if (!spatial_axes(n.attrs.get_string("layout"), x.size(), ps.h_axis, ps.w_axis)) {
    *why = "a pool over layout \"" + n.attrs.get_string("layout") + "\"";
    return false;
  }
  if (!n.attrs.is_none("out_layout") && !n.attrs.get_string("out_layout").empty() &&
      n.attrs.get_string("out_layout") != n.attrs.get_string("layout")) {
    *why = "a pool that changes layout";
    return false;
  }
  if (global) {
    ps.kernel[0] = x[static_cast<size_t>(ps.h_axis)];
    ps.kernel[1] = x[static_cast<size_t>(ps.w_axis)];
    return true;
  }
  if (adaptive) {
    // Output o of an axis pools [o * in / out, ceil((o + 1) * in / out)): where out divides
    // in, windows of in / out taps at that stride (PyTorch's exported ResNets end with one
    // of output size 1). Max keeps the reference's start from the window's first tap.
    std::vector<int64_t> size = n.attrs.get_ints("output_size");
    const int64_t in[2] = {x[static_cast<size_t>(ps.h_axis)], x[static_cast<size_t>(ps.w_axis)]};
    if (size.empty()) size = {in[0], in[1]};
    if (size.size() == 1) size.push_back(size[0]);
    for (int a = 0; a < 2; ++a) {
      if (size.size() != 2 || size[a] < 1 || in[a] < 1 || in[a] % size[a] != 0) {
        *why = "an adaptive pool whose output size does not divide the input's: its reference kernel";
        return false;
      }
      ps.kernel[a] = ps.stride[a] = in[a] / size[a];
    }
    ps.max_from_first_tap = ps.is_max;
    return true;
  }
  const std::optional<WindowAttrs> window = window_attrs_2d(n.attrs);
  if (!pair(n, "pool_size", ps.kernel, 1) || !window) {
    *why = "pool attributes";
    return false;
  }
  for (int a = 0; a < 2; ++a) {
    ps.stride[a] = window->strides[static_cast<size_t>(a)], ps.dilation[a] = window->dilation[static_cast<size_t>(a)];
    ps.pad_before[a] = window->pad_before[static_cast<size_t>(a)], ps.pad_after[a] = window->pad_after[static_cast<size_t>(a)];
  }
  ps.count_include_pad = !ps.is_max && n.attrs.get_bool("count_include_pad");
  for (int a = 0; a < 2; ++a)
    if (ps.kernel[a] < 1 || ps.stride[a] < 1 || ps.dilation[a] < 1) {
      *why = "pool attributes";
      return false;
    }
  return true;
}

}  // namespace

void copy_scalar_attrs(const Node& n, loops::EwStep& step) {
  // The lowering says which attributes it reads (loops::elementwise_attrs).
  for (std::string_view name : loops::elementwise_attrs(step.op))
    if (const AttrVal* v = n.attrs.get(name)) {
      if (v->kind == AttrVal::Kind::Int) step.attrs[std::string(name)] = static_cast<double>(v->int_value);
      else if (v->kind == AttrVal::Kind::Float) step.attrs[std::string(name)] = v->float_value;
    }
}

std::optional<loops::IndexProgram> index_program(const Graph& g, const FusedGroup& group, std::vector<NodeId>* inputs,
                                                 std::string* why) {
  if (group.outputs.size() != 1) {
    *why = std::to_string(group.outputs.size()) + " outputs";
    return std::nullopt;
  }
  loops::IndexProgram p;
  std::unordered_map<NodeId, loops::IxRef> ref;
  std::unordered_map<NodeId, std::vector<NodeId>> tuples;  // tuple members: their fields
  std::vector<bool> inside(g.size(), false);
  for (NodeId id : group.nodes) inside[id] = true;
  inputs->clear();
  auto operand = [&](NodeId in, loops::IxRef& out) -> bool {
    if (auto it = ref.find(in); it != ref.end()) {
      out = it->second;
      return true;
    }
    if (inside[in] || !is_tensor(g[in])) return false;
    out = loops::IxRef::input(static_cast<int>(p.inputs.size()));
    p.inputs.push_back({dtype_of(g[in].type), shape_of(g[in].type)});
    inputs->push_back(in);
    ref[in] = out;
    return true;
  };
  for (NodeId id : group.nodes) {
    const Node& n = g[id];
    if (n.kind == NodeKind::Tuple) {
      tuples[id] = n.inputs;
      continue;
    }
    if (n.kind != NodeKind::Call || !n.op || !is_tensor(n)) {
      *why = "a tuple projection inside the group";
      return std::nullopt;
    }
    const std::string op(n.op->name);
    loops::IxNode x;
    x.dtype = dtype_of(n.type);
    x.shape = shape_of(n.type);
    std::vector<NodeId> args = n.inputs;
    if (op == "concatenate") {
      auto t = args.size() == 1 ? tuples.find(args[0]) : tuples.end();
      if (t == tuples.end()) {
        *why = "`concatenate` of a tuple from outside the group";
        return std::nullopt;
      }
      args = t->second;
    }
    for (NodeId a : args) {
      loops::IxRef r;
      if (!operand(a, r)) {
        *why = "`" + op + "` reads a tuple";
        return std::nullopt;
      }
      x.operands.push_back(r);
    }
    const size_t rank = x.shape.size();
    const std::vector<int64_t> in0 = args.empty() || !is_tensor(g[args[0]]) ? std::vector<int64_t>{} : shape_of(g[args[0]].type);
    bool ok = true;
    if (op == "transpose") {
      x.kind = loops::IxKind::Transpose;
      std::vector<int64_t> axes = n.attrs.get_ints("axes");
      if (axes.empty())
        for (size_t d = rank; d-- > 0;) axes.push_back(static_cast<int64_t>(d));
      for (int64_t& a : axes) ok = ok && normalize(a, rank);
      x.perm = axes;
    } else if (op == "reshape" || op == "squeeze" || op == "expand_dims" || op == "nn.batch_flatten" ||
               op == "contrib_reverse_reshape") {
      x.kind = loops::IxKind::Reshape;
      x.operands.resize(1);
    } else if (op == "strided_slice") {
      x.kind = loops::IxKind::Slice;
      ok = slice_ranges(n, in0, x.begin, x.steps);
    } else if (op == "reverse") {
      x.kind = loops::IxKind::Slice;
      x.begin.assign(rank, 0);
      x.steps.assign(rank, 1);
      std::vector<bool> flip(rank, n.attrs.is_none("axis"));
      if (!n.attrs.is_none("axis")) {
        int64_t a = n.attrs.get_int("axis");
        ok = normalize(a, rank);
        if (ok) flip[static_cast<size_t>(a)] = true;
      }
      for (size_t d = 0; d < rank; ++d)
        if (flip[d]) x.begin[d] = std::max<int64_t>(in0[d] - 1, 0), x.steps[d] = -1;
    } else if (op == "broadcast_to" || op == "broadcast_to_like") {
      x.kind = loops::IxKind::Broadcast;
      x.operands.resize(1);
    } else if (op == "tile") {
      x.kind = loops::IxKind::Tile;
    } else if (op == "repeat") {
      x.kind = loops::IxKind::Repeat;
      x.axis = n.attrs.get_int("axis");
      x.repeats = n.attrs.get_int("repeats");
      ok = normalize(x.axis, rank);
    } else if (op == "concatenate") {
      x.kind = loops::IxKind::Concat;
      x.axis = n.attrs.get_int("axis");
      ok = normalize(x.axis, rank);
    } else if (op == "layout_transform") {
      x.kind = loops::IxKind::Layout;
      x.src_layout = n.attrs.get_string("src_layout");
      x.dst_layout = n.attrs.get_string("dst_layout");
    } else if (op == "nn.pad" || op == "nn.mirror_pad") {
      x.kind = loops::IxKind::Pad;
      const std::string mode = n.attrs.get_string(op == "nn.pad" ? "pad_mode" : "mode");
      x.mode = mode == "edge" ? 1 : mode == "reflect" || mode == "REFLECT" ? 2 : mode == "SYMMETRIC" ? 3 : 0;
      ok = op == "nn.pad" ? mode == "constant" || mode.empty() || mode == "edge" || mode == "reflect"
                          : mode == "REFLECT" || mode == "SYMMETRIC";
      if (x.mode != 0) x.operands.resize(1);  // only a constant pad reads its fill value
      const auto widths = n.attrs.get_int_matrix("pad_width");
      ok = ok && widths.size() == rank && in0.size() == rank;
      for (size_t d = 0; ok && d < rank; ++d) {
        ok = widths[d].size() == 2;
        // A mirror must not reach past the data it mirrors: the reference kernel says so.
        const int64_t most = loops::widest_mirror_pad(x.mode, in0[d]);
        if (ok && (widths[d][0] > most || widths[d][1] > most)) {
          *why = "`" + op + "` mirrors past the data in dimension " + std::to_string(d) + ": its reference kernel";
          return std::nullopt;
        }
        if (ok) x.begin.push_back(widths[d][0]);
      }
    } else if (op == "nn.upsampling") {
      // Nearest neighbour by whole factors without align_corners: the reference reads
      // x[i / k] along H and W (TOPI's integer-division case), two Repeat nodes. Other
      // methods and fractional factors stay on the reference kernel.
      int hi = -1, wi = -1;
      ok = n.attrs.get_string("method") == "nearest_neighbor" && !n.attrs.get_bool("align_corners") &&
           in0.size() == rank && spatial_axes(n.attrs.get_string("layout"), rank, hi, wi);
      const size_t h = static_cast<size_t>(hi), w = static_cast<size_t>(wi);
      ok = ok && in0[h] > 0 && in0[w] > 0 && x.shape[h] % in0[h] == 0 && x.shape[w] % in0[w] == 0;
      if (ok) {
        loops::IxNode rows = x;
        rows.kind = loops::IxKind::Repeat;
        rows.axis = static_cast<int64_t>(h);
        rows.repeats = x.shape[h] / in0[h];
        rows.shape = in0;
        rows.shape[h] = x.shape[h];
        x.operands = {loops::IxRef::node(static_cast<int>(p.nodes.size()))};
        p.nodes.push_back(std::move(rows));
        x.kind = loops::IxKind::Repeat;
        x.axis = static_cast<int64_t>(w);
        x.repeats = x.shape[w] / in0[w];
      } else {
        *why = "`nn.upsampling` other than nearest neighbour by whole factors: its reference kernel";
        return std::nullopt;
      }
    } else if (op == "take") {
      x.kind = loops::IxKind::Take;
      const std::string mode = n.attrs.get_string("mode");
      x.mode = mode == "clip" ? 0 : mode == "wrap" ? 1 : mode == "fast" ? 2 : -1;
      ok = x.mode >= 0 && args.size() == 2;
      if (ok && n.attrs.is_none("axis")) {
        x.axis = -1;
      } else if (ok) {
        x.axis = n.attrs.get_int("axis");
        ok = normalize(x.axis, in0.size());
        const size_t irank = shape_of(g[args[1]].type).size();
        int64_t b = n.attrs.get_int("batch_dims", 0);
        if (b < 0) b += static_cast<int64_t>(irank);
        ok = ok && b >= 0 && b <= std::min<int64_t>(x.axis, static_cast<int64_t>(irank));
        x.batch_dims = b;
      }
    } else if (op == "gather") {
      x.kind = loops::IxKind::Gather;
      x.axis = n.attrs.get_int("axis");
      ok = args.size() == 2 && normalize(x.axis, in0.size());
    } else if (op == "gather_nd") {
      // index_rank, when given, must be the indices' first dim (the reference's error stands)
      x.kind = loops::IxKind::GatherNd;
      x.batch_dims = n.attrs.get_int("batch_dims", 0);
      const auto index_rank = n.attrs.get_opt_int("index_rank");
      const std::vector<int64_t> ind = args.size() == 2 ? shape_of(g[args[1]].type) : std::vector<int64_t>{};
      ok = !ind.empty() && (!index_rank || *index_rank == ind[0]);
    } else if (op == "nn.max_pool2d" || op == "nn.avg_pool2d" || op == "nn.global_max_pool2d" ||
               op == "nn.global_avg_pool2d" || op == "nn.adaptive_max_pool2d" || op == "nn.adaptive_avg_pool2d") {
      x.kind = loops::IxKind::Pool;
      if (!pool_spec(n, in0, x.pool, why)) return std::nullopt;
      if (!loops::pool_supports(x.dtype)) {
        *why = "`" + op + "` on " + dtype_name(x.dtype) + " has no lowering";
        return std::nullopt;
      }
    } else {
      x.kind = loops::IxKind::Elementwise;
      x.step.op = op;
      x.step.dtype = x.dtype;
      const DataType first = args.empty() ? x.dtype : dtype_of(g[args[0]].type);
      if (!loops::elementwise_supports(op, first)) {
        *why = "`" + op + "` on " + dtype_name(first) + " has no lowering";
        return std::nullopt;
      }
      copy_scalar_attrs(n, x.step);
    }
    if (!ok) {
      *why = "`" + op + "` with attributes the index lowering does not take";
      return std::nullopt;
    }
    ref[id] = loops::IxRef::node(static_cast<int>(p.nodes.size()));
    p.nodes.push_back(std::move(x));
  }
  auto out = ref.find(group.outputs[0]);
  if (out == ref.end() || out->second.is_input || out->second.index + 1 != static_cast<int>(p.nodes.size())) {
    *why = "its output is not its last operation";
    return std::nullopt;
  }
  return p;
}

}  // namespace relay::compiler
