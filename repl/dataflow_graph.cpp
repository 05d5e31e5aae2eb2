#include "repl/dataflow_graph.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lang/syntax/printer.h"
#include "lang/types/type.h"

namespace relay::repl {

namespace {

// The parser bounds nesting (kMaxNestingDepth), but a tree built another way might not:
// past this depth a subexpression becomes one opaque node instead of a deeper recursion.
constexpr int kMaxDepth = 2 * kMaxNestingDepth;

// Long types (a batch_norm's 3-tuple, a tuple of 20 tensors) would make nodes wider than
// the screen; the label shows a prefix and the tooltip the whole text.
constexpr size_t kMaxTypeChars = 96;

constexpr const char* kFont = "Helvetica,Arial,sans-serif";

enum class NodeStyle {
  Param,
  FreeVar,
  Op,
  GlobalCall,
  Ctor,
  Structure,  // tuples and projections
  Constant,
  ControlFlow,
  Reference,
  Other,
  Error,
  Result,
};

struct StyleAttrs {
  const char* shape;
  const char* style;
  const char* fill;
  const char* border;
};

// Pastel fills with dark text and mid-tone borders read well on Jupyter's light and dark
// backgrounds alike (the graph background is transparent).
StyleAttrs style_attrs(NodeStyle s) {
  switch (s) {
    case NodeStyle::Param: return {"box", "rounded,filled", "#dcfce7", "#16a34a"};
    case NodeStyle::FreeVar: return {"box", "rounded,filled,dashed", "#dcfce7", "#16a34a"};
    case NodeStyle::Op: return {"box", "filled", "#dbeafe", "#2563eb"};
    case NodeStyle::GlobalCall: return {"component", "filled", "#ede9fe", "#7c3aed"};
    case NodeStyle::Ctor: return {"box", "rounded,filled", "#fce7f3", "#db2777"};
    case NodeStyle::Structure: return {"box", "rounded,filled", "#f3f4f6", "#6b7280"};
    case NodeStyle::Constant: return {"note", "filled", "#fef9c3", "#ca8a04"};
    case NodeStyle::ControlFlow: return {"hexagon", "filled", "#ffedd5", "#ea580c"};
    case NodeStyle::Reference: return {"box", "rounded,filled", "#e0f2fe", "#0284c7"};
    case NodeStyle::Other: return {"box", "filled", "#f3f4f6", "#6b7280"};
    case NodeStyle::Error: return {"box", "filled", "#fee2e2", "#dc2626"};
    case NodeStyle::Result: return {"box", "rounded,filled,bold", "#fde68a", "#d97706"};
  }
  return {"box", "filled", "#f3f4f6", "#6b7280"};
}

// Text inside a DOT double-quoted string. Backslashes are doubled so that Graphviz's own
// escapes (`\N`, `\G`, `\l`) cannot be triggered by user text, and `&` is written as an
// entity because Graphviz decodes entities (`&lt;`) in labels.
std::string dot_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// Cuts `text` to about `limit` bytes without splitting a UTF-8 sequence.
std::string shorten(const std::string& text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "\u2026";
}

struct Node {
  NodeStyle style;
  std::string head;     // what computes the value: `nn.dense`, `@f`, `.0`, `%x`
  std::string type;     // empty when unknown
  std::string bound;    // the first binder naming this value, e.g. `%3`
  std::string details;  // tooltip text, e.g. an operator's attributes
};

struct Edge {
  size_t from;
  size_t to;
  bool callee = false;  // the function being called, not an argument
};

class GraphBuilder {
 public:
  explicit GraphBuilder(const InferredTypes* types) : types_(types) {}

  void build(const FunctionExpr& fn) {
    for (const VarDecl* p : fn.params) {
      if (!p) continue;
      producers_[p] = add(NodeStyle::Param, "%" + std::string(p->name), binder_type(p));
    }
    const size_t body = value_of(fn.body, 0);
    std::string result_type = expr_type(fn.body);
    if (result_type.empty() && types_) {
      if (const auto* f = ty_as<FuncTy>(types_->type); f && f->ret) result_type = type_to_string(f->ret);
    }
    if (result_type.empty() && !types_ && fn.ret_type) result_type = print_type(fn.ret_type);
    const size_t result = add(NodeStyle::Result, "result", result_type);
    link(body, result);
  }

  std::string dot(std::string_view name) const {
    std::string out = "digraph \"" + dot_escape(name) + "\" {\n";
    out += std::string("  graph [rankdir=TB, bgcolor=\"transparent\", fontname=\"") + kFont +
           "\", fontsize=12, fontcolor=\"#6b7280\", labelloc=t, label=\"@" + dot_escape(name) +
           "\", nodesep=0.3, ranksep=0.35];\n";
    out += std::string("  node [fontname=\"") + kFont +
           "\", fontsize=11, fontcolor=\"#111827\", margin=\"0.15,0.06\", penwidth=1.2];\n";
    out += "  edge [color=\"#6b7280\", arrowsize=0.7, penwidth=1.2];\n";
    for (size_t i = 0; i < nodes_.size(); ++i) out += node_line(i);
    for (const Edge& e : edges_) {
      out += "  n" + std::to_string(e.from) + " -> n" + std::to_string(e.to);
      out += e.callee ? " [style=dashed];\n" : ";\n";
    }
    out += "}\n";
    return out;
  }

 private:
  size_t add(NodeStyle style, std::string head, std::string type, std::string details = {}) {
    nodes_.push_back({style, std::move(head), std::move(type), {}, std::move(details)});
    return nodes_.size() - 1;
  }
  void link(size_t from, size_t to, bool callee = false) { edges_.push_back({from, to, callee}); }
  size_t add_with_inputs(NodeStyle style, std::string head, const Expr* e, const std::vector<size_t>& inputs) {
    const size_t id = add(style, std::move(head), expr_type(e));
    for (size_t in : inputs) link(in, id);
    return id;
  }

  std::string expr_type(const Expr* e) const {
    if (!types_ || !e) return {};
    const Ty t = types_->type_of(e);
    return t ? type_to_string(t) : std::string();
  }
  std::string binder_type(const VarDecl* v) const {
    if (types_) {
      const Ty t = types_->type_of(v);
      return t ? type_to_string(t) : std::string();
    }
    return v->annotation ? print_type(v->annotation) : std::string();
  }

  // The node whose value `e` evaluates to, creating the nodes of `e` on the way.
  size_t value_of(const Expr* e, int depth) {
    if (!e) return add(NodeStyle::Error, "missing", {});
    if (depth > kMaxDepth) return add(NodeStyle::Other, "\u2026", expr_type(e));
    const int next = depth + 1;
    switch (e->kind) {
      case ExprKind::Error: return add(NodeStyle::Error, "error", {});
      case ExprKind::Constant:
        return add(NodeStyle::Constant, format_constant(as<ConstantExpr>(e)), expr_type(e));
      case ExprKind::MetaRef: {
        const auto* m = as<MetaRefExpr>(e);
        return add(NodeStyle::Constant,
                   "meta[" + std::string(m->type_key) + "][" + std::to_string(m->index) + "]", expr_type(e));
      }
      case ExprKind::Tuple: {
        std::vector<size_t> inputs;
        for (const Expr* f : as<TupleExpr>(e)->fields) inputs.push_back(value_of(f, next));
        return add_with_inputs(NodeStyle::Structure, "tuple", e, inputs);
      }
      case ExprKind::TupleGetItem: {
        const auto* g = as<TupleGetItemExpr>(e);
        return add_with_inputs(NodeStyle::Structure, "." + std::to_string(g->index), e, {value_of(g->tuple, next)});
      }
      case ExprKind::LocalRef: return local(static_cast<const RefExpr*>(e));
      case ExprKind::GlobalRef: return add(NodeStyle::GlobalCall, "@" + ref_name(e), expr_type(e));
      case ExprKind::Ident:
      case ExprKind::OpRef: return add(NodeStyle::Op, ref_name(e), expr_type(e));
      case ExprKind::CtorRef: return add(NodeStyle::Ctor, ref_name(e), expr_type(e));
      case ExprKind::Call: return call(as<CallExpr>(e), next);
      case ExprKind::Block: return block(as<BlockExpr>(e), next);
      case ExprKind::Function:  // its inputs are the outer values it captures
        return add_with_inputs(NodeStyle::ControlFlow, "fn", e, outer_uses({as<FunctionExpr>(e)->body}));
      case ExprKind::If: {
        const auto* i = as<IfExpr>(e);
        std::vector<size_t> inputs{value_of(i->cond, next)};
        for (size_t u : outer_uses({i->then_branch, i->else_branch})) inputs.push_back(u);
        return add_with_inputs(NodeStyle::ControlFlow, "if", e, inputs);
      }
      case ExprKind::Match: {
        const auto* m = as<MatchExpr>(e);
        std::vector<size_t> inputs{value_of(m->scrutinee, next)};
        std::vector<const Expr*> bodies;
        for (const Clause& c : m->clauses) bodies.push_back(c.body);
        for (size_t u : outer_uses(bodies)) inputs.push_back(u);
        return add_with_inputs(NodeStyle::ControlFlow, m->complete ? "match" : "match?", e, inputs);
      }
      case ExprKind::RefCreate:
        return add_with_inputs(NodeStyle::Reference, "ref", e, {value_of(as<RefCreateExpr>(e)->value, next)});
      case ExprKind::RefRead:
        return add_with_inputs(NodeStyle::Reference, "ref_read", e, {value_of(as<RefReadExpr>(e)->ref, next)});
      case ExprKind::RefWrite: {
        const auto* w = as<RefWriteExpr>(e);
        const size_t ref = value_of(w->ref, next);
        const size_t value = value_of(w->value, next);
        return add_with_inputs(NodeStyle::Reference, "ref_write", e, {ref, value});
      }
    }
    return add(NodeStyle::Other, "?", expr_type(e));
  }

  static std::string ref_name(const Expr* e) { return std::string(as_ref(e)->name); }

  // A variable is its producer. One that was never bound on the way here (a free
  // variable, a name that did not resolve) gets a node of its own, once.
  size_t local(const RefExpr* r) {
    if (r->decl) {
      if (auto it = producers_.find(r->decl); it != producers_.end()) return it->second;
    }
    const size_t id = add(NodeStyle::FreeVar, "%" + std::string(r->name),
                          r->decl ? binder_type(r->decl) : expr_type(r));
    if (r->decl) producers_[r->decl] = id;
    return id;
  }

  size_t call(const CallExpr* c, int depth) {
    const RefExpr* callee = as_ref(c->callee);
    NodeStyle style = NodeStyle::Other;
    std::string head = "call";
    std::vector<size_t> inputs;
    bool callee_is_value = false;
    if (callee && (callee->kind == ExprKind::OpRef || callee->kind == ExprKind::Ident)) {
      style = NodeStyle::Op;
      head = std::string(callee->name);
    } else if (callee && callee->kind == ExprKind::GlobalRef) {
      style = NodeStyle::GlobalCall;
      head = "@" + std::string(callee->name);
    } else if (callee && callee->kind == ExprKind::CtorRef) {
      style = NodeStyle::Ctor;
      head = std::string(callee->name);
    } else {
      // A closure held in a variable, or any expression that computes a function.
      inputs.push_back(value_of(c->callee, depth));
      callee_is_value = true;
    }
    for (const Expr* a : c->args) inputs.push_back(value_of(a, depth));
    // The attributes go in the tooltip: they would make the boxes of a model too wide.
    const std::string attrs = attrs_text(*c);
    std::string details = attrs.empty() ? std::string() : head + "(" + attrs + ")";
    const size_t id = add(style, std::move(head), expr_type(c), std::move(details));
    for (size_t i = 0; i < inputs.size(); ++i) link(inputs[i], id, callee_is_value && i == 0);
    return id;
  }

  static std::string attrs_text(const CallExpr& c) {
    std::string out;
    for (const Attr& a : c.attrs) {
      if (!out.empty()) out += ", ";
      out += std::string(a.key) + "=" + (a.value ? print_attr_value(a.value) : std::string());
    }
    return out;
  }

  size_t block(const BlockExpr* b, int depth) {
    for (const Binding& binding : b->bindings) {
      if (binding.kind == BindingKind::FreeVar) {
        if (binding.var)
          producers_[binding.var] =
              add(NodeStyle::FreeVar, "%" + std::string(binding.var->name), binder_type(binding.var));
        continue;
      }
      const size_t first_new = nodes_.size();
      const size_t id = value_of(binding.value, depth);
      if (!binding.var) continue;  // a sequence: evaluated for its effect only
      producers_[binding.var] = id;
      // Name only a node this binding created: `%1 = %0;` must not rename %0's node.
      if (id >= first_new && nodes_[id].bound.empty()) nodes_[id].bound = "%" + std::string(binding.var->name);
    }
    return value_of(b->result, depth);
  }

  // Producers of the variables bound outside `roots` that `roots` use, in order of first
  // use: the inputs of a branch or closure drawn as one node. An explicit stack, since
  // the bodies are not bounded by the depth guard.
  std::vector<size_t> outer_uses(const std::vector<const Expr*>& roots) const {
    std::vector<size_t> found;
    std::unordered_set<size_t> seen;
    std::vector<const Expr*> stack(roots.rbegin(), roots.rend());
    while (!stack.empty()) {
      const Expr* e = stack.back();
      stack.pop_back();
      if (!e) continue;
      if (e->kind == ExprKind::LocalRef) {
        const auto* r = static_cast<const RefExpr*>(e);
        auto it = r->decl ? producers_.find(r->decl) : producers_.end();
        if (it != producers_.end() && seen.insert(it->second).second) found.push_back(it->second);
        continue;
      }
      const size_t mark = stack.size();
      push_children(e, stack);
      std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());  // visit in source order
    }
    return found;
  }

  static void push_children(const Expr* e, std::vector<const Expr*>& out) {
    switch (e->kind) {
      case ExprKind::Tuple:
        for (const Expr* f : as<TupleExpr>(e)->fields) out.push_back(f);
        break;
      case ExprKind::Function: out.push_back(as<FunctionExpr>(e)->body); break;
      case ExprKind::Call: {
        const auto* c = as<CallExpr>(e);
        out.push_back(c->callee);
        for (const Expr* a : c->args) out.push_back(a);
        break;
      }
      case ExprKind::Block: {
        const auto* b = as<BlockExpr>(e);
        for (const Binding& binding : b->bindings) out.push_back(binding.value);
        out.push_back(b->result);
        break;
      }
      case ExprKind::If: {
        const auto* i = as<IfExpr>(e);
        out.insert(out.end(), {i->cond, i->then_branch, i->else_branch});
        break;
      }
      case ExprKind::Match: {
        const auto* m = as<MatchExpr>(e);
        out.push_back(m->scrutinee);
        for (const Clause& c : m->clauses) out.push_back(c.body);
        break;
      }
      case ExprKind::TupleGetItem: out.push_back(as<TupleGetItemExpr>(e)->tuple); break;
      case ExprKind::RefCreate: out.push_back(as<RefCreateExpr>(e)->value); break;
      case ExprKind::RefRead: out.push_back(as<RefReadExpr>(e)->ref); break;
      case ExprKind::RefWrite: {
        const auto* w = as<RefWriteExpr>(e);
        out.insert(out.end(), {w->ref, w->value});
        break;
      }
      default: break;  // leaves
    }
  }

  std::string node_line(size_t i) const {
    const Node& n = nodes_[i];
    const StyleAttrs s = style_attrs(n.style);
    std::string label = dot_escape(n.bound.empty() ? n.head : n.bound + " = " + n.head);
    if (!n.type.empty()) label += "\\n" + dot_escape(shorten(n.type, kMaxTypeChars));
    std::string tooltip = n.details;
    if (n.type.size() > kMaxTypeChars) tooltip += (tooltip.empty() ? "" : "\n") + n.type;
    std::string out = "  n" + std::to_string(i) + " [label=\"" + label + "\", shape=" + s.shape + ", style=\"" +
                      s.style + "\", fillcolor=\"" + s.fill + "\", color=\"" + s.border + "\"";
    if (!tooltip.empty()) out += ", tooltip=\"" + dot_escape(tooltip) + "\"";
    return out + "];\n";
  }

  const InferredTypes* types_;
  std::vector<Node> nodes_;
  std::vector<Edge> edges_;
  std::unordered_map<const VarDecl*, size_t> producers_;
};

}  // namespace

std::string dataflow_dot(const FuncDef& def, const InferredTypes* types) {
  GraphBuilder builder(types);
  if (def.fn) builder.build(*def.fn);
  return builder.dot(def.name);
}

}  // namespace relay::repl
