// build_graph: a typed Relay function to the graph IR, for concrete argument shapes.
//
// The walk follows evaluation order (bindings in order, arguments left to right), so the
// node vector comes out topological and close to TVM's post-DFS order, which fusion's
// tie-breaking follows. Variables resolve through VarDecl identity (name resolution
// already made scoping unambiguous), so one map serves every scope.
#include <unordered_map>
#include <unordered_set>

#include "compiler/graph/graph.h"
#include "interpreter/eval/meta_constant.h"
#include "interpreter/eval/tier.h"

namespace relay::compiler {

namespace {

// Not a graph: the message is the reason the tiering reports.
struct NotAGraph {
  std::string reason;
  Span where;
};

class Builder {
 public:
  Builder(const InferredTypes* types, const Metadata* metadata)
      : types_(types), metadata_(metadata), b_(std::make_shared<TypeArena>()) {}

  Graph build(const FuncDef& def, std::span<const ArgSpec> args) {
    const FunctionExpr& fn = *def.fn;
    if (!fn.type_params.empty()) fail("a polymorphic function (type parameters)", fn.span);
    if (args.size() != fn.params.size())
      fail("called with " + std::to_string(args.size()) + " arguments but it has " +
               std::to_string(fn.params.size()) + " parameters",
           fn.span);
    bind_inputs(fn.params, args);
    NodeId out = expr(fn.body);
    return b_.finish(out, std::string(def.name));
  }

  // A tensor region: its input variables are the graph's inputs, its bindings the body,
  // the tuple of its output variables the result.
  Graph build_region(const rt::RegionInfo& r, std::span<const ArgSpec> args) {
    if (args.size() != r.inputs.size())
      fail("given " + std::to_string(args.size()) + " inputs but the region reads " +
               std::to_string(r.inputs.size()) + " variables",
           r.span);
    bind_inputs(r.inputs, args);
    for (const Binding* binding : r.bindings) bind(*binding);
    std::vector<NodeId> outs;
    for (const VarDecl* v : r.outputs) {
      auto it = env_.find(v);
      if (it == env_.end() || it->second.fn) fail("%" + std::string(v->name) + " is not a value of the region", v->span);
      outs.push_back(it->second.id);
    }
    NodeId out = b_.tuple(std::move(outs), r.span);
    std::string name = r.enclosing ? std::string(r.enclosing->name) : std::string("region");
    return b_.finish(out, name + "_region" + std::to_string(r.id));
  }

 private:
  struct Entry {
    NodeId id = 0;
    const FunctionExpr* fn = nullptr;  // a let-bound function literal (inlined when called)
  };

  // The graph's inputs: `vars[i]` at the concrete type of `args[i]`, checked against its
  // declared type.
  void bind_inputs(std::span<const VarDecl* const> vars, std::span<const ArgSpec> args) {
    for (uint32_t i = 0; i < vars.size(); ++i) {
      const VarDecl* v = vars[i];
      Ty t = tensor_type(*b_.graph().arena, args[i].shape, args[i].dtype);
      check_param(v, t);
      env_[v] = Entry{b_.input(i, std::string(v->name), t, v->span), nullptr};
    }
  }

  [[noreturn]] static void fail(std::string reason, Span where) { throw NotAGraph{std::move(reason), where}; }

  // The argument must fit the checked parameter type where that type is concrete.
  void check_param(const VarDecl* p, Ty arg) {
    Ty declared = types_ ? types_->type_of(p) : nullptr;
    if (!declared) return;
    const auto* want = ty_as<TensorTy>(declared);
    const auto* have = ty_as<TensorTy>(arg);
    if (!want) fail("parameter %" + std::string(p->name) + " is not a tensor (" + type_to_string(declared) + ")", p->span);
    bool ok = want->dtype == have->dtype && want->rank() == have->rank();
    for (size_t d = 0; ok && d < want->rank(); ++d) {
      auto w = want->shape[d].constant_value();
      if (w && *w != *have->shape[d].constant_value()) ok = false;
    }
    if (!ok)
      fail("parameter %" + std::string(p->name) + " is " + type_to_string(declared) + " but the argument is " +
               type_to_string(arg),
           p->span);
  }

  NodeId expr(const Expr* e) {
    switch (e->kind) {
      case ExprKind::Constant: {
        auto* c = static_cast<const ConstantExpr*>(e);
        rt::NDArray v = c->dtype.is_float() ? rt::NDArray::scalar(c->float_value, c->dtype)
                                            : rt::NDArray::scalar_int(c->int_value, c->dtype);
        return b_.constant(std::move(v), e->span);
      }
      case ExprKind::Tuple: {
        std::vector<NodeId> fields;
        for (const Expr* f : static_cast<const TupleExpr*>(e)->fields) fields.push_back(expr(f));
        return b_.tuple(std::move(fields), e->span);
      }
      case ExprKind::LocalRef: {
        auto* r = static_cast<const RefExpr*>(e);
        auto it = env_.find(r->decl);
        if (it == env_.end()) fail("%" + std::string(r->name) + " is not bound to a value here", e->span);
        if (it->second.fn) fail("a closure used as a value (%" + std::string(r->name) + ")", e->span);
        return it->second.id;
      }
      case ExprKind::GlobalRef:
        fail("a global function used as a value (@" + std::string(static_cast<const RefExpr*>(e)->name) + ")", e->span);
      case ExprKind::OpRef:
        fail("an operator used as a value (" + std::string(static_cast<const RefExpr*>(e)->name) + ")", e->span);
      case ExprKind::CtorRef:
        fail("an ADT constructor (" + std::string(static_cast<const RefExpr*>(e)->name) + ")", e->span);
      case ExprKind::MetaRef: {
        try {
          rt::Value v = rt::metadata_constant(metadata_, *static_cast<const MetaRefExpr*>(e));
          if (!v.is_tensor()) fail("a metadata entry that is not a tensor", e->span);
          return b_.constant(v.tensor(), e->span);
        } catch (const rt::RuntimeError& err) {
          fail(err.what(), e->span);
        }
      }
      case ExprKind::Function: fail("a closure (a function literal used as a value)", e->span);
      case ExprKind::Call: return call(static_cast<const CallExpr*>(e));
      case ExprKind::Block: return block(static_cast<const BlockExpr*>(e));
      case ExprKind::If: fail("control flow (`if`)", e->span);
      case ExprKind::Match: fail("control flow (`match`)", e->span);
      case ExprKind::TupleGetItem: {
        auto* g = static_cast<const TupleGetItemExpr*>(e);
        return b_.get_item(expr(g->tuple), g->index, e->span);
      }
      case ExprKind::RefCreate:
      case ExprKind::RefRead:
      case ExprKind::RefWrite: fail("references (ref, ref_read, ref_write)", e->span);
      case ExprKind::Error:
      case ExprKind::Ident: break;
    }
    fail("an expression that did not parse or resolve", e->span);
  }

  NodeId block(const BlockExpr* b) {
    for (const Binding& binding : b->bindings) bind(binding);
    return expr(b->result);
  }

  void bind(const Binding& binding) {
    if (binding.kind == BindingKind::FreeVar) fail("a free variable", binding.span);
    if (binding.var && binding.value->kind == ExprKind::Function) {
      env_[binding.var] = Entry{0, static_cast<const FunctionExpr*>(binding.value)};
      return;
    }
    NodeId v = expr(binding.value);  // a Sequence binding's value is pure: DCE drops it
    if (binding.var) env_[binding.var] = Entry{v, nullptr};
  }

  NodeId call(const CallExpr* c) {
    const Expr* callee = c->callee;
    if (callee->kind == ExprKind::OpRef) {
      const OpInfo* op = static_cast<const RefExpr*>(callee)->op;
      if (!op) fail("an unknown operator", callee->span);
      if (!op->supported) fail("`" + std::string(op->name) + "` is not supported yet", c->span);
      CallAttrs attrs;
      DiagnosticBag diags;
      if (!check_call_attrs(*op, *c, attrs, diags)) fail("invalid attributes for `" + std::string(op->name) + "`", c->span);
      std::vector<NodeId> args;
      for (const Expr* a : c->args) args.push_back(expr(a));
      return b_.call(*op, std::move(attrs), std::move(args), c->span);
    }
    const FunctionExpr* fn = nullptr;
    if (callee->kind == ExprKind::Function) fn = static_cast<const FunctionExpr*>(callee);
    if (callee->kind == ExprKind::LocalRef) {
      auto it = env_.find(static_cast<const RefExpr*>(callee)->decl);
      if (it != env_.end()) fn = it->second.fn;
      if (!fn) fail("a call of a function value (a closure)", c->span);
    }
    if (callee->kind == ExprKind::GlobalRef)
      fail("a call of another global (@" + std::string(static_cast<const RefExpr*>(callee)->name) + ")", c->span);
    if (callee->kind == ExprKind::CtorRef)
      fail("an ADT constructor (" + std::string(static_cast<const RefExpr*>(callee)->name) + ")", c->span);
    if (!fn) fail("a call of a computed function value", c->span);
    return inline_call(fn, c);
  }

  // A known function literal called directly: its body is built with the parameters
  // bound to the argument nodes (beta reduction), which is what a graph of the LSTM cell
  // needs. Recursion is not dataflow.
  NodeId inline_call(const FunctionExpr* fn, const CallExpr* c) {
    if (active_.count(fn)) fail("recursion", c->span);
    if (fn->params.size() != c->args.size()) fail("a call with the wrong number of arguments", c->span);
    std::vector<NodeId> args;
    for (const Expr* a : c->args) args.push_back(expr(a));
    active_.insert(fn);
    for (size_t i = 0; i < args.size(); ++i) env_[fn->params[i]] = Entry{args[i], nullptr};
    NodeId out = expr(fn->body);
    active_.erase(fn);
    return out;
  }

  const InferredTypes* types_;
  const Metadata* metadata_;
  GraphBuilder b_;
  std::unordered_map<const VarDecl*, Entry> env_;
  std::unordered_set<const FunctionExpr*> active_;
};

}  // namespace

namespace {

// Runs one of the Builder's entries; what is not a graph becomes the result's reason.
template <class Build>
BuildResult build_catching(Build&& build) {
  BuildResult r;
  try {
    r.graph = build();
  } catch (const NotAGraph& e) {
    r.reason = e.reason;
    r.where = e.where;
  } catch (const GraphError& e) {
    r.reason = e.what();
    r.where = e.span;
  }
  return r;
}

}  // namespace

BuildResult build_graph(const FuncDef& def, const InferredTypes* types, const Metadata* metadata,
                        std::span<const ArgSpec> args) {
  return build_catching([&] { return Builder(types, metadata).build(def, args); });
}

BuildResult build_region_graph(const rt::RegionInfo& region, const InferredTypes* types, const Metadata* metadata,
                               std::span<const ArgSpec> args) {
  return build_catching([&] { return Builder(types, metadata).build_region(region, args); });
}

}  // namespace relay::compiler
