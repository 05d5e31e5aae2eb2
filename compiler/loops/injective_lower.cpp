// lower_index_program: one loop nest over the output of an IndexProgram; each node is
// evaluated at the multi-index its consumer asks for (see injective.h). Values are bound to
// lets and memoised per (node, index) within a block, so a node read twice at one index is
// computed once; a node read inside a nested block (a pool window, a concatenate branch)
// is computed there.
#include <map>
#include <stdexcept>

#include "compiler/loops/elementwise_internal.h"
#include "compiler/loops/injective.h"
#include "compiler/loops/verify.h"

namespace relay::loops {

namespace {

using ew::index_add;
using ew::index_scale;

Expr i64c(int64_t v) { return int_imm(v); }
Expr add(Expr a, Expr b) { return index_add(std::move(a), std::move(b)); }
Expr sub(Expr a, int64_t b) { return b == 0 ? a : binary(BinaryOp::Sub, std::move(a), i64c(b)); }
Expr min_(Expr a, Expr b) { return binary(BinaryOp::Min, std::move(a), std::move(b)); }
Expr max_(Expr a, Expr b) { return binary(BinaryOp::Max, std::move(a), std::move(b)); }
Expr clamp(Expr v, int64_t lo, int64_t hi) { return min_(max_(std::move(v), i64c(lo)), i64c(hi)); }
Expr in_range(const Expr& v, int64_t n) {  // 0 <= v < n
  return binary(BinaryOp::And, compare(CmpOp::Ge, v, i64c(0)), compare(CmpOp::Lt, v, i64c(n)));
}
// An index read from data into a dim of `dim` (take's fast mode, gather, gather_nd): out
// of range sets the status flag (the reference raises its error) and the load is clamped
// inside.
Expr checked_index(ew::Emitter& em, const Expr& read, int64_t dim) {
  Expr i = em.bind(cast(i64(), read), "k");
  em.failures.push_back(unary(UnaryOp::Not, in_range(i, dim)));
  return em.bind(clamp(i, 0, dim - 1), "k");
}
Expr all_of(const std::vector<Expr>& conds) {
  Expr r;
  for (const Expr& c : conds) r = r ? binary(BinaryOp::And, r, c) : c;
  return r;
}

int64_t product(const std::vector<int64_t>& s, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t n = 1;
  const size_t end = std::min(to, s.size());
  for (size_t d = from; d < end; ++d) n *= s[d];
  return n;
}

Expr flat_of(const std::vector<Expr>& idx, const std::vector<int64_t>& shape) {
  const ew::Strides st = ew::contiguous(shape);
  Expr f = i64c(0);
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1) f = add(f, index_scale(idx[d], st[d]));
  return f;
}

// numpy's right-aligned broadcast of an index of `out` to an operand of shape `s`.
std::vector<Expr> project(const std::vector<Expr>& idx, const std::vector<int64_t>& s) {
  std::vector<Expr> j(s.size());
  const size_t off = idx.size() - s.size();
  for (size_t d = 0; d < s.size(); ++d) j[d] = s[d] == 1 ? i64c(0) : idx[d + off];
  return j;
}

struct Layout {
  char primal[16];
  int64_t factor[16];
  size_t n = 0;
};
bool parse_layout(const std::string& text, Layout& l) {
  for (size_t i = 0; i < text.size();) {
    int64_t f = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && f < (int64_t{1} << 40)) f = f * 10 + (text[i++] - '0');
    if (i == text.size() || l.n == 16) return false;
    const char c = text[i++];
    const bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
    if (!(upper || lower) || (f == 0) != upper) return false;
    l.primal[l.n] = upper ? c : static_cast<char>(c - 'a' + 'A');
    l.factor[l.n++] = f;
  }
  return true;
}

class Lowerer {
 public:
  Lowerer(const IndexProgram& p, Kernel& k) : p_(p), k_(k) {}

  std::string check();
  void build(LoweredIndexProgram& r, LoopShape shape);

 private:
  const std::vector<int64_t>& shape_of(IxRef r) const {
    return r.is_input ? p_.inputs[static_cast<size_t>(r.index)].shape : p_.nodes[static_cast<size_t>(r.index)].shape;
  }
  DataType dtype_of(IxRef r) const {
    return r.is_input ? p_.inputs[static_cast<size_t>(r.index)].dtype : p_.nodes[static_cast<size_t>(r.index)].dtype;
  }
  Expr value(ew::Emitter& em, IxRef r, const std::vector<Expr>& idx);
  Expr value_flat(ew::Emitter& em, IxRef r, const Expr& flat);
  Expr compute(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx);
  Expr pool(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx);
  Expr concat(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx);
  Expr take(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx);
  Expr gather(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx);
  Expr gather_nd(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx);
  Expr layout(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx);
  // Emits `fill` into a nested block (its own memo scope; failures recorded there).
  Block nested(const std::function<void(ew::Emitter&)>& fill);

  const IndexProgram& p_;
  Kernel& k_;
  int flag_ = -1;
  bool can_fail_ = false;
  bool has_blocks_ = false;  // some node emits loops or branches (the inner loop is serial)
  std::map<std::pair<int, std::vector<const ExprNode*>>, Expr> memo_;
  std::vector<Expr> keep_;  // every memoised index stays alive, so no address is reused
};

std::string Lowerer::check() {
  auto bad = [](size_t i, const std::string& m) { return "node " + std::to_string(i) + ": " + m; };
  for (size_t i = 0; i < p_.nodes.size(); ++i) {
    const IxNode& n = p_.nodes[i];
    for (const IxRef& o : n.operands) {
      const bool ok = o.is_input ? o.index >= 0 && static_cast<size_t>(o.index) < p_.inputs.size()
                                 : o.index >= 0 && static_cast<size_t>(o.index) < i;
      if (!ok) return bad(i, "refers to a missing operand");
    }
    const size_t rank = n.shape.size();
    for (int64_t d : n.shape)
      if (d < 0) return bad(i, "negative dimension");
    if (n.kind != IxKind::Elementwise && n.operands.empty()) return bad(i, "no operand");
    const std::vector<int64_t> x = n.operands.empty() ? std::vector<int64_t>{} : shape_of(n.operands[0]);
    const DataType xt = n.operands.empty() ? n.dtype : dtype_of(n.operands[0]);
    if (n.kind != IxKind::Elementwise && n.kind != IxKind::Take && n.kind != IxKind::Gather &&
        n.kind != IxKind::GatherNd && xt != n.dtype)
      return bad(i, "dtype changes");
    switch (n.kind) {
      case IxKind::Elementwise: {
        std::vector<DataType> types;
        for (const IxRef& o : n.operands) {
          const auto& s = shape_of(o);
          std::vector<int64_t> ignored;
          if (!ew::broadcast_strides(s, n.shape, ignored)) return bad(i, "an operand does not broadcast");
          types.push_back(dtype_of(o));
        }
        EwStep step = n.step;
        step.operands.clear();
        for (size_t k = 0; k < n.operands.size(); ++k) step.operands.push_back(EwOperand::input(static_cast<int>(k)));
        ew::Typing t = ew::type_step(step, types);
        if (!t.error.empty()) return t.error;
        if (t.result != n.dtype) return bad(i, "`" + step.op + "` gives " + dtype_name(t.result));
        if (!types.empty() && ew::step_can_fail(step, types[0])) can_fail_ = true;
        break;
      }
      case IxKind::Transpose: {
        if (n.perm.size() != rank || x.size() != rank) return bad(i, "transpose rank");
        std::vector<bool> seen(rank, false);
        for (size_t d = 0; d < rank; ++d) {
          const int64_t a = n.perm[d];
          if (a < 0 || static_cast<size_t>(a) >= rank || seen[static_cast<size_t>(a)] || x[static_cast<size_t>(a)] != n.shape[d])
            return bad(i, "transpose axes");
          seen[static_cast<size_t>(a)] = true;
        }
        break;
      }
      case IxKind::Reshape:
        if (product(x) != product(n.shape)) return bad(i, "reshape changes the element count");
        break;
      case IxKind::Slice:
        if (n.begin.size() != rank || n.steps.size() != rank || x.size() != rank) return bad(i, "slice rank");
        for (size_t d = 0; d < rank; ++d) {
          if (n.shape[d] == 0) continue;
          const int64_t last = n.begin[d] + (n.shape[d] - 1) * n.steps[d];
          if (n.begin[d] < 0 || n.begin[d] >= x[d] || last < 0 || last >= x[d]) return bad(i, "slice out of bounds");
        }
        break;
      case IxKind::Broadcast: {
        std::vector<int64_t> ignored;
        if (!ew::broadcast_strides(x, n.shape, ignored)) return bad(i, "does not broadcast");
        break;
      }
      case IxKind::Tile:
        if (x.size() > rank) return bad(i, "tile rank");
        for (size_t d = 0; d < x.size(); ++d)
          if (x[d] == 0 || n.shape[d + rank - x.size()] % x[d] != 0) return bad(i, "tile extents");
        break;
      case IxKind::Repeat:
        if (x.size() != rank || n.axis < 0 || static_cast<size_t>(n.axis) >= rank || n.repeats < 1 ||
            x[static_cast<size_t>(n.axis)] * n.repeats != n.shape[static_cast<size_t>(n.axis)])
          return bad(i, "repeat extents");
        break;
      case IxKind::Concat: {
        if (n.axis < 0 || static_cast<size_t>(n.axis) >= rank) return bad(i, "concat axis");
        int64_t total = 0;
        for (const IxRef& o : n.operands) {
          const auto& s = shape_of(o);
          if (s.size() != rank || dtype_of(o) != n.dtype) return bad(i, "concat operand");
          for (size_t d = 0; d < rank; ++d)
            if (d != static_cast<size_t>(n.axis) && s[d] != n.shape[d]) return bad(i, "concat operand shape");
          total += s[static_cast<size_t>(n.axis)];
        }
        if (total != n.shape[static_cast<size_t>(n.axis)]) return bad(i, "concat extent");
        break;
      }
      case IxKind::Pad:
        if (x.size() != rank || n.begin.size() != rank) return bad(i, "pad rank");
        if (n.mode == 0 && (n.operands.size() != 2 || product(shape_of(n.operands[1])) != 1 || dtype_of(n.operands[1]) != n.dtype))
          return bad(i, "pad value");
        if (n.mode < 0 || n.mode > 3) return bad(i, "pad mode");
        for (size_t d = 0; d < rank; ++d) {
          if (x[d] == 0 && n.shape[d] != 0) return bad(i, "pad of an empty dimension");
          const int64_t most = widest_mirror_pad(n.mode, x[d]);
          if (n.begin[d] > most || n.shape[d] - x[d] - n.begin[d] > most)
            return bad(i, "a mirror past the data");
        }
        break;
      case IxKind::Take: {
        if (n.operands.size() != 2 || xt != n.dtype) return bad(i, "take operands");
        const DataType it = dtype_of(n.operands[1]);
        if (!(it.is_int() || it.is_uint())) return bad(i, "take indices are not integers");
        const auto& ind = shape_of(n.operands[1]);
        if (n.axis < 0) {
          if (ind != n.shape || product(x) == 0) return bad(i, "take (flat) shapes");
        } else {
          const size_t a = static_cast<size_t>(n.axis), nb = static_cast<size_t>(n.batch_dims);
          if (a >= x.size() || nb > a || nb > ind.size() || x[a] == 0) return bad(i, "take axis");
          if (rank != x.size() - 1 + ind.size() - nb) return bad(i, "take rank");
        }
        if (n.mode < 0 || n.mode > 2) return bad(i, "take mode");
        if (n.mode == 2) can_fail_ = true;
        break;
      }
      case IxKind::Gather: {
        if (n.operands.size() != 2 || xt != n.dtype) return bad(i, "gather operands");
        const DataType it = dtype_of(n.operands[1]);
        if (!(it.is_int() || it.is_uint())) return bad(i, "gather indices are not integers");
        const auto& ind = shape_of(n.operands[1]);
        if (ind != n.shape || x.size() != rank || n.axis < 0 || static_cast<size_t>(n.axis) >= rank)
          return bad(i, "gather shapes");
        for (size_t d = 0; d < rank; ++d)
          if (d != static_cast<size_t>(n.axis) && x[d] != n.shape[d]) return bad(i, "gather shapes");
        can_fail_ = true;
        break;
      }
      case IxKind::GatherNd: {
        if (n.operands.size() != 2 || xt != n.dtype) return bad(i, "gather_nd operands");
        const DataType it = dtype_of(n.operands[1]);
        if (!(it.is_int() || it.is_uint())) return bad(i, "gather_nd indices are not integers");
        const auto& ind = shape_of(n.operands[1]);
        const size_t nb = static_cast<size_t>(n.batch_dims);
        if (ind.empty() || n.batch_dims < 0 || nb >= ind.size()) return bad(i, "gather_nd batch_dims");
        const size_t m = static_cast<size_t>(ind[0]);
        if (nb + m > x.size()) return bad(i, "gather_nd index depth");
        std::vector<int64_t> out(ind.begin() + 1, ind.end());
        out.insert(out.end(), x.begin() + static_cast<std::ptrdiff_t>(nb + m), x.end());
        if (out != n.shape) return bad(i, "gather_nd shapes");
        for (size_t d = 0; d < nb; ++d)
          if (x[d] != ind[d + 1]) return bad(i, "gather_nd batch dims");
        can_fail_ = true;
        break;
      }
      case IxKind::Layout: {
        Layout s, d;
        if (!parse_layout(n.src_layout, s) || !parse_layout(n.dst_layout, d) || s.n != x.size() || d.n != rank)
          return bad(i, "layouts");
        break;
      }
      case IxKind::Pool:
        if (x.size() != rank || !pool_supports(n.dtype)) return bad(i, "pool operand");
        has_blocks_ = true;
        break;
    }
    if (n.kind == IxKind::Concat) has_blocks_ = true;
  }
  if (p_.nodes.empty()) return "the program has no nodes";
  return {};
}

Block Lowerer::nested(const std::function<void(ew::Emitter&)>& fill) {
  auto saved = memo_;
  Block b;
  ew::Emitter sub{k_, b, {}};
  fill(sub);
  if (flag_ >= 0) ew::record_failures(b, k_, flag_, sub.failures);
  memo_ = std::move(saved);
  return b;
}

Expr Lowerer::value(ew::Emitter& em, IxRef r, const std::vector<Expr>& idx) {
  std::pair<int, std::vector<const ExprNode*>> key{r.is_input ? -1 - r.index : r.index, {}};
  for (const Expr& e : idx) key.second.push_back(e.get());
  keep_.insert(keep_.end(), idx.begin(), idx.end());
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  Expr v;
  if (r.is_input) v = em.bind(load(k_.buffer(r.index), flat_of(idx, shape_of(r))), "x");
  else v = em.bind(compute(em, p_.nodes[static_cast<size_t>(r.index)], idx), "v");
  memo_[key] = v;
  return v;
}

// A reshape reads its operand at the same row-major offset: inputs and chains of reshapes
// are read there directly instead of unravelling and re-flattening the index.
Expr Lowerer::value_flat(ew::Emitter& em, IxRef r, const Expr& flat) {
  if (r.is_input) return em.bind(load(k_.buffer(r.index), flat), "x");
  const IxNode& n = p_.nodes[static_cast<size_t>(r.index)];
  if (n.kind == IxKind::Reshape) return value_flat(em, n.operands[0], flat);
  const auto& s = n.shape;
  const ew::Strides st = ew::contiguous(s);
  std::vector<Expr> idx(s.size());
  for (size_t d = 0; d < s.size(); ++d) {
    Expr q = st[d] == 1 ? flat : binary(BinaryOp::Div, flat, i64c(st[d]));
    if (d > 0 && s[d] != 1) q = binary(BinaryOp::Rem, q, i64c(s[d]));
    idx[d] = s[d] == 1 ? i64c(0) : em.bind(q, "u");
  }
  return value(em, r, idx);
}

Expr Lowerer::compute(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx) {
  const size_t rank = n.shape.size();
  auto x = [&]() -> const std::vector<int64_t>& { return shape_of(n.operands[0]); };
  switch (n.kind) {
    case IxKind::Elementwise: {
      std::vector<Expr> args;
      for (const IxRef& o : n.operands) args.push_back(value(em, o, project(idx, shape_of(o))));
      EwStep step = n.step;
      step.operands.clear();
      for (size_t k = 0; k < n.operands.size(); ++k) step.operands.push_back(EwOperand::input(static_cast<int>(k)));
      return ew::emit_step(em, step, args);
    }
    case IxKind::Transpose: {
      std::vector<Expr> j(rank);
      for (size_t d = 0; d < rank; ++d) j[static_cast<size_t>(n.perm[d])] = idx[d];
      return value(em, n.operands[0], j);
    }
    case IxKind::Reshape: return value_flat(em, n.operands[0], em.bind(flat_of(idx, n.shape), "f"));
    case IxKind::Slice: {
      std::vector<Expr> j(rank);
      for (size_t d = 0; d < rank; ++d)
        j[d] = x()[d] == 1 ? i64c(0) : add(i64c(n.begin[d]), index_scale(idx[d], n.steps[d]));
      return value(em, n.operands[0], j);
    }
    case IxKind::Broadcast: return value(em, n.operands[0], project(idx, x()));
    case IxKind::Tile: {
      const auto& s = x();
      std::vector<Expr> j(s.size());
      const size_t off = rank - s.size();
      for (size_t d = 0; d < s.size(); ++d)
        j[d] = s[d] == 1 ? i64c(0) : s[d] == n.shape[d + off] ? idx[d + off] : binary(BinaryOp::Rem, idx[d + off], i64c(s[d]));
      return value(em, n.operands[0], j);
    }
    case IxKind::Repeat: {
      std::vector<Expr> j = idx;
      const size_t a = static_cast<size_t>(n.axis);
      j[a] = n.repeats == 1 ? idx[a] : binary(BinaryOp::Div, idx[a], i64c(n.repeats));
      return value(em, n.operands[0], j);
    }
    case IxKind::Concat: return concat(em, n, idx);
    case IxKind::Pad: {
      const auto& s = x();
      std::vector<Expr> j(rank), inside;
      for (size_t d = 0; d < rank; ++d) {
        const int64_t before = n.begin[d];
        const bool padded = before > 0 || n.shape[d] - before > s[d];
        Expr at = sub(idx[d], before);
        if (padded) {
          at = em.bind(at, "p");
          if (n.mode == 0) inside.push_back(in_range(at, s[d]));
          if (n.mode <= 1) {
            at = clamp(at, 0, s[d] - 1);  // constant (masked above) and edge
          } else {
            // Mirrors, as the reference's pad table: reflect (m = 0) folds -1 onto 1 and n
            // onto n - 2; symmetric (m = 1) repeats the edge, -1 onto 0 and n onto n - 1.
            // The planner keeps pads within one fold of the data.
            const int64_t m = n.mode == 3 ? 1 : 0;
            Expr folded = em.bind(max_(at, binary(BinaryOp::Sub, i64c(-m), at)), "f");
            at = min_(folded, binary(BinaryOp::Sub, i64c(2 * s[d] - 2 + m), folded));
          }
        }
        j[d] = s[d] == 1 ? i64c(0) : at;
      }
      Expr v = value(em, n.operands[0], j);
      if (inside.empty()) return v;
      Expr fill = value(em, n.operands[1], std::vector<Expr>(shape_of(n.operands[1]).size(), i64c(0)));
      return select(all_of(inside), v, fill);
    }
    case IxKind::Take: return take(em, n, idx);
    case IxKind::Gather: return gather(em, n, idx);
    case IxKind::GatherNd: return gather_nd(em, n, idx);
    case IxKind::Layout: return layout(em, n, idx);
    case IxKind::Pool: return pool(em, n, idx);
  }
  throw std::logic_error("unknown index node");
}

// The operand that holds the index is found by a branch per operand (a densenet
// concatenate has dozens): each branch computes only its own operand and stores it to a
// local, so no operand is read outside its extent.
Expr Lowerer::concat(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx) {
  const size_t a = static_cast<size_t>(n.axis);
  const int out = add_local(k_, "cat", n.dtype, 1);
  em.block.push_back(alloc(k_.buffer(out)));
  int64_t offset = 0;
  for (const IxRef& o : n.operands) {
    const int64_t e = shape_of(o)[a];
    if (e == 0) continue;
    std::vector<Expr> j = idx;
    Expr cond = binary(BinaryOp::And, compare(CmpOp::Ge, idx[a], i64c(offset)), compare(CmpOp::Lt, idx[a], i64c(offset + e)));
    Block body = nested([&](ew::Emitter& sub_em) {
      j[a] = shape_of(o)[a] == 1 ? i64c(0) : sub(idx[a], offset);
      sub_em.block.push_back(store(k_.buffer(out), i64c(0), value(sub_em, o, project(j, shape_of(o)))));
    });
    em.block.push_back(if_then(cond, std::move(body)));
    offset += e;
  }
  return load(k_.buffer(out), i64c(0));
}

Expr Lowerer::take(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx) {
  const auto& data = shape_of(n.operands[0]);
  const auto& ind = shape_of(n.operands[1]);
  std::vector<Expr> ii;
  int64_t dim;
  if (n.axis < 0) {
    ii = idx;
    dim = product(data);
  } else {
    const size_t a = static_cast<size_t>(n.axis), nb = static_cast<size_t>(n.batch_dims);
    for (size_t d = 0; d < nb; ++d) ii.push_back(idx[d]);
    for (size_t d = nb; d < ind.size(); ++d) ii.push_back(idx[a + d - nb]);
    dim = data[a];
  }
  Expr i = em.bind(cast(i64(), value(em, n.operands[1], ii)), "k");
  Expr resolved;
  if (n.mode == 0) resolved = clamp(i, 0, dim - 1);
  else if (n.mode == 1) resolved = binary(BinaryOp::Rem, binary(BinaryOp::Add, binary(BinaryOp::Rem, i, i64c(dim)), i64c(dim)), i64c(dim));
  else resolved = checked_index(em, i, dim);
  resolved = em.bind(resolved, "k");
  if (n.axis < 0) return value_flat(em, n.operands[0], resolved);
  const size_t a = static_cast<size_t>(n.axis);
  std::vector<Expr> j;
  for (size_t d = 0; d < a; ++d) j.push_back(idx[d]);
  j.push_back(resolved);
  for (size_t d = a + 1; d < data.size(); ++d) j.push_back(idx[d - 1 + ind.size() - static_cast<size_t>(n.batch_dims)]);
  return value(em, n.operands[0], project(j, data));
}

// The reference (transform_index.cpp) raises its error for an index outside [0, dim): the
// status flag reports it and the load stays inside.
Expr Lowerer::gather(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx) {
  const size_t a = static_cast<size_t>(n.axis);
  std::vector<Expr> j = idx;
  j[a] = checked_index(em, value(em, n.operands[1], idx), shape_of(n.operands[0])[a]);
  return value(em, n.operands[0], j);
}

// The output index is (y..., t...) with y the indices' positions (their dims after the
// first) and t the data's trailing dims; the first batch_dims of y index the data too.
Expr Lowerer::gather_nd(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx) {
  const auto& x = shape_of(n.operands[0]);
  const auto& ind = shape_of(n.operands[1]);
  const size_t positions = ind.size() - 1, nb = static_cast<size_t>(n.batch_dims), m = static_cast<size_t>(ind[0]);
  std::vector<Expr> j(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(nb));
  std::vector<Expr> at(ind.size());
  for (size_t d = 0; d < positions; ++d) at[d + 1] = idx[d];
  for (size_t k = 0; k < m; ++k) {
    at[0] = i64c(static_cast<int64_t>(k));
    j.push_back(checked_index(em, value(em, n.operands[1], at), x[nb + k]));
  }
  j.insert(j.end(), idx.begin() + static_cast<std::ptrdiff_t>(positions), idx.end());
  return value(em, n.operands[0], j);
}

Expr Lowerer::layout(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx) {
  Layout src, dst;
  parse_layout(n.src_layout, src);
  parse_layout(n.dst_layout, dst);
  const auto& x = shape_of(n.operands[0]);
  std::vector<Expr> j(x.size(), i64c(0));
  std::vector<Expr> inside;
  for (size_t s = 0; s < src.n; ++s) {
    if (src.factor[s] != 0) continue;  // each primal axis once
    const char P = src.primal[s];
    int src_sub = -1, dst_ax = -1, dst_sub = -1;
    int64_t src_f = 1, dst_f = 1;
    for (size_t t = 0; t < src.n; ++t)
      if (src.primal[t] == P && src.factor[t]) src_sub = static_cast<int>(t), src_f = src.factor[t];
    for (size_t t = 0; t < dst.n; ++t)
      if (dst.primal[t] == P) {
        if (dst.factor[t]) dst_sub = static_cast<int>(t), dst_f = dst.factor[t];
        else dst_ax = static_cast<int>(t);
      }
    const int64_t extent = x[s] * (src_sub >= 0 ? x[static_cast<size_t>(src_sub)] : 1);
    Expr coord = index_scale(idx[static_cast<size_t>(dst_ax)], dst_f);
    if (dst_sub >= 0) coord = add(coord, idx[static_cast<size_t>(dst_sub)]);
    const int64_t reach = n.shape[static_cast<size_t>(dst_ax)] * dst_f;
    if (reach > extent) {  // a padded split: past the extent reads 0
      coord = em.bind(coord, "c");
      inside.push_back(compare(CmpOp::Lt, coord, i64c(extent)));
      coord = min_(coord, i64c(extent - 1));
    }
    coord = em.bind(coord, "c");
    j[s] = src_f == 1 ? coord : binary(BinaryOp::Div, coord, i64c(src_f));
    if (src_sub >= 0) j[static_cast<size_t>(src_sub)] = binary(BinaryOp::Rem, coord, i64c(src_f));
  }
  for (size_t d = 0; d < x.size(); ++d)
    if (x[d] == 1) j[d] = i64c(0);
  Expr v = value(em, n.operands[0], j);
  if (inside.empty()) return v;
  return select(all_of(inside), v, const_of(0, n.dtype));
}

Expr Lowerer::pool(ew::Emitter& em, const IxNode& n, const std::vector<Expr>& idx) {
  const PoolSpec& ps = n.pool;
  const auto& x = shape_of(n.operands[0]);
  const DataType t = n.dtype;
  const bool is_float = t.is_float() || is_storage_only(t);
  // float16/bfloat16 are compared in float32 (exact), as the reference's Compute<T> does
  const DataType value_t = is_storage_only(t) ? f32() : t;
  const DataType acc_t = ps.is_max ? value_t : is_float ? DataType::float_(64) : i64();
  const int acc = add_local(k_, "acc", acc_t, 1), cnt = add_local(k_, "cnt", i64(), 1);
  em.block.push_back(alloc(k_.buffer(acc)));
  em.block.push_back(alloc(k_.buffer(cnt)));
  Expr init;
  if (!ps.is_max) init = const_of(0, acc_t);
  else if (t == DataType::float_(16)) init = float_imm(-65504.0, acc_t);  // the lowest finite float16
  else if (t == DataType::float_(32) || is_storage_only(t)) init = float_imm(-3.4028234663852886e38, acc_t);
  else if (t == DataType::float_(64)) init = float_imm(-1.7976931348623157e308, t);
  else if (t.is_uint()) init = int_imm(0, t);
  else init = int_imm(integer_min(t), t);
  em.block.push_back(store(k_.buffer(acc), i64c(0), init));
  em.block.push_back(store(k_.buffer(cnt), i64c(0), i64c(0)));
  const size_t axes[2] = {static_cast<size_t>(ps.h_axis), static_cast<size_t>(ps.w_axis)};
  Expr start[2];
  for (int a = 0; a < 2; ++a)
    start[a] = em.bind(sub(index_scale(idx[axes[a]], ps.stride[a]), ps.pad_before[a]), "s");
  const Var t0 = new_var(k_, "kh", i64()), t1 = new_var(k_, "kw", i64());
  Block outer = nested([&](ew::Emitter& e0) {
    Expr h = e0.bind(add(start[0], index_scale(var_ref(t0), ps.dilation[0])), "h");
    Block row = nested([&](ew::Emitter& e1) {
      Expr w = e1.bind(add(start[1], index_scale(var_ref(t1), ps.dilation[1])), "w");
      Block tap = nested([&](ew::Emitter& e2) {
        std::vector<Expr> j = idx;
        j[axes[0]] = h;
        j[axes[1]] = w;
        Expr v = cast(value_t, value(e2, n.operands[0], project(j, x)));
        Expr a = load(k_.buffer(acc), i64c(0));
        Expr take = compare(CmpOp::Gt, v, a);
        if (ps.max_from_first_tap)
          take = binary(BinaryOp::Or, compare(CmpOp::Eq, load(k_.buffer(cnt), i64c(0)), i64c(0)), take);
        Expr next = ps.is_max ? select(take, v, a) : binary(BinaryOp::Add, a, cast(acc_t, v));
        e2.block.push_back(store(k_.buffer(acc), i64c(0), next));
        e2.block.push_back(store(k_.buffer(cnt), i64c(0), binary(BinaryOp::Add, load(k_.buffer(cnt), i64c(0)), i64c(1))));
      });
      e1.block.push_back(if_then(in_range(w, x[axes[1]]), std::move(tap)));
    });
    e0.block.push_back(if_then(in_range(h, x[axes[0]]), {for_loop(t1, i64c(ps.kernel[1]), LoopKind::Reduction, std::move(row))}));
  });
  em.block.push_back(for_loop(t0, i64c(ps.kernel[0]), LoopKind::Reduction, std::move(outer)));
  Expr result = em.bind(load(k_.buffer(acc), i64c(0)), "a");
  if (ps.is_max) return cast(t, result);
  Expr count = load(k_.buffer(cnt), i64c(0));
  if (ps.count_include_pad) {
    // per axis: (min(start + (k-1)*dil, in + pad_after - 1) - start) / dil + 1
    count = i64c(1);
    for (int a = 0; a < 2; ++a) {
      Expr end = min_(add(start[a], i64c((ps.kernel[a] - 1) * ps.dilation[a])), i64c(x[axes[a]] + ps.pad_after[a] - 1));
      Expr taps = binary(BinaryOp::Add, binary(BinaryOp::Div, binary(BinaryOp::Sub, end, start[a]), i64c(ps.dilation[a])), i64c(1));
      count = binary(BinaryOp::Mul, count, taps);
    }
  }
  // Clamped to 1 except count_include_pad's float divisor, which TOPI leaves as it is: a
  // ceil_mode window past the padding averages to 0/0 = NaN (the interpreter's `divisor`).
  count = em.bind(ps.count_include_pad && is_float ? count : max_(count, i64c(1)), "n");
  // floats: the float64 mean, through float32 for float16/bfloat16 as the reference rounds it
  if (is_float) return cast(t, cast(value_t, binary(BinaryOp::Div, result, cast(DataType::float_(64), count))));
  // the reference: the wrapping sum cast to the dtype, widened, divided truncating
  return cast(t, binary(BinaryOp::Div, cast(i64(), cast(t, result)), count));
}

void Lowerer::build(LoweredIndexProgram& r, LoopShape shape) {
  Kernel& k = k_;
  for (size_t i = 0; i < p_.inputs.size(); ++i)
    add_param(k, "in" + std::to_string(i), p_.inputs[i].dtype, p_.inputs[i].shape, ew::contiguous(p_.inputs[i].shape));
  const IxNode& last = p_.nodes.back();
  const std::vector<int64_t>& S = last.shape;
  r.output_buffer = add_param(k, "out", last.dtype, S, ew::contiguous(S));
  if (can_fail_) r.status_buffer = add_param(k, "status", DataType::int_(32), {}, {});
  if (product(S) == 0) return;  // nothing to compute
  flag_ = can_fail_ ? add_local(k, "flag", boolean(), 1) : -1;

  const size_t rank = S.size();
  if (shape == LoopShape::Gpu) {  // one parallel iteration per output element
    const Var t = new_var(k, "t", i64());
    Block body;
    if (flag_ >= 0) {
      body.push_back(alloc(k.buffer(flag_)));
      body.push_back(store(k.buffer(flag_), i64c(0), int_imm(0, boolean())));
    }
    ew::Emitter em{k, body, {}};
    const ew::Strides st = ew::contiguous(S);
    std::vector<Expr> idx(rank);
    int64_t before = 1;  // the product of the dimensions before d
    for (size_t d = 0; d < rank; ++d) {
      if (S[d] == 1) {
        idx[d] = i64c(0);
        continue;
      }
      Expr q = st[d] == 1 ? var_ref(t) : binary(BinaryOp::Div, var_ref(t), i64c(st[d]));
      if (before > 1) q = binary(BinaryOp::Rem, q, i64c(S[d]));
      idx[d] = em.bind(q, "r");
      before *= S[d];
    }
    Expr v = value(em, IxRef::node(static_cast<int>(p_.nodes.size() - 1)), idx);
    body.push_back(store(k.buffer(r.output_buffer), var_ref(t), v));
    if (flag_ >= 0) {
      ew::record_failures(body, k, flag_, em.failures);
      body.push_back(if_then(load(k.buffer(flag_), i64c(0)), {store(k.buffer(r.status_buffer), i64c(0), int_imm(1, DataType::int_(32)))}));
    }
    k.body.push_back(for_loop(t, i64c(product(S)), LoopKind::Parallel, std::move(body)));
    return;
  }
  const int64_t inner_n = rank == 0 ? 1 : S[rank - 1];
  const int64_t rows = rank == 0 ? 1 : product(S, 0, rank - 1);
  const Var outer = new_var(k, "o", i64()), inner = new_var(k, "i", i64());
  Block outer_body;
  if (flag_ >= 0) {
    outer_body.push_back(alloc(k.buffer(flag_)));
    outer_body.push_back(store(k.buffer(flag_), i64c(0), int_imm(0, boolean())));
  }
  std::vector<Expr> idx(rank);
  Expr outer_extent, inner_extent, flat;
  if (rows == 1) {  // one row: chunks of it are the parallel loop
    outer_extent = i64c((inner_n + kElementwiseChunk - 1) / kElementwiseChunk);
    inner_extent = min_(i64c(kElementwiseChunk), binary(BinaryOp::Sub, i64c(inner_n), index_scale(var_ref(outer), kElementwiseChunk)));
    flat = add(index_scale(var_ref(outer), kElementwiseChunk), var_ref(inner));
    for (size_t d = 0; d + 1 < rank; ++d) idx[d] = i64c(0);
    if (rank > 0) idx[rank - 1] = flat;
    if (inner_n <= kElementwiseChunk) {
      inner_extent = i64c(inner_n);
      flat = var_ref(inner);
      if (rank > 0) idx[rank - 1] = flat;
    }
  } else {  // rows are the parallel loop; the row's index unravelled once per row
    outer_extent = i64c(rows);
    inner_extent = i64c(inner_n);
    const ew::Strides st = ew::contiguous(std::vector<int64_t>(S.begin(), S.end() - 1));
    ew::Emitter em{k, outer_body, {}};
    for (size_t d = 0; d + 1 < rank; ++d) {
      if (S[d] == 1) {
        idx[d] = i64c(0);
        continue;
      }
      Expr q = st[d] == 1 ? var_ref(outer) : binary(BinaryOp::Div, var_ref(outer), i64c(st[d]));
      if (d > 0) q = binary(BinaryOp::Rem, q, i64c(S[d]));
      idx[d] = em.bind(q, "r");
    }
    idx[rank - 1] = S[rank - 1] == 1 ? i64c(0) : var_ref(inner);
    flat = add(index_scale(var_ref(outer), inner_n), var_ref(inner));
  }
  Block inner_body;
  ew::Emitter em{k, inner_body, {}};
  Expr v = value(em, IxRef::node(static_cast<int>(p_.nodes.size() - 1)), idx);
  inner_body.push_back(store(k.buffer(r.output_buffer), flat, v));
  if (flag_ >= 0) ew::record_failures(inner_body, k, flag_, em.failures);
  outer_body.push_back(for_loop(inner, inner_extent, has_blocks_ ? LoopKind::Serial : LoopKind::Vectorizable, std::move(inner_body)));
  if (flag_ >= 0)
    outer_body.push_back(if_then(load(k.buffer(flag_), i64c(0)), {store(k.buffer(r.status_buffer), i64c(0), int_imm(1, DataType::int_(32)))}));
  k.body.push_back(for_loop(outer, outer_extent, LoopKind::Parallel, std::move(outer_body)));
}

}  // namespace

LoweredIndexProgram lower_index_program(const IndexProgram& p, std::string name, LoopShape shape) {
  LoweredIndexProgram r;
  r.kernel.name = std::move(name);
  Lowerer l(p, r.kernel);
  std::string error = l.check();
  if (error.empty()) {
    l.build(r, shape);
    std::vector<std::string> problems = verify(r.kernel);
    if (!problems.empty()) error = "internal error: the lowered kernel does not verify: " + problems[0];
  }
  if (!error.empty()) {
    r = LoweredIndexProgram{};
    r.error = std::move(error);
  }
  return r;
}

const std::vector<std::string_view>& lowered_index_ops() {
  static const std::vector<std::string_view> ops = {
      "transpose", "reshape", "squeeze", "expand_dims", "nn.batch_flatten", "contrib_reverse_reshape",
      "strided_slice", "reverse", "broadcast_to", "broadcast_to_like", "tile", "repeat", "concatenate",
      "layout_transform", "nn.pad", "nn.mirror_pad", "nn.upsampling", "take", "gather", "gather_nd", "nn.max_pool2d",
      "nn.avg_pool2d",
      "nn.adaptive_max_pool2d", "nn.adaptive_avg_pool2d", "nn.global_max_pool2d", "nn.global_avg_pool2d",
  };
  return ops;
}

bool pool_supports(DataType t) {
  return t == DataType::float_(32) || t == DataType::float_(64) || is_storage_only(t) || t.is_int() || t.is_uint();
}

}  // namespace relay::loops
