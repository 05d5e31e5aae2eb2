#include "lang/autodiff/first_order.h"

#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "lang/autodiff/gradient_rule.h"
#include "lang/syntax/printer.h"
#include "lang/types/call_attrs.h"

namespace relay::autodiff {
namespace {

// A value of the forward pass: one atom of the generated function.
struct Value {
  enum class Kind : uint8_t { Param, Constant, Call, Tuple, Project };
  Value(Kind k, std::string a, Ty t) : kind(k), atom(std::move(a)), type(t) {}
  Kind kind;
  std::string atom;      // `%x`, `%fw3`, or a literal
  Ty type = nullptr;
  const CallExpr* call = nullptr;  // Call
  const OpInfo* op = nullptr;      // Call
  CallAttrs attrs;                 // Call
  std::vector<std::pair<std::string, std::string>> written_attrs;  // Call
  std::string attrs_meta;          // Call: `meta[...]` when the attributes are one
  std::vector<int> inputs;         // Call: arguments; Tuple: fields; Project: the tuple
  uint32_t index = 0;              // Project
};

// The gradient flowing into one value so far: terms to add up (a tensor), or one
// accumulator per field (a tuple).
struct Accumulator {
  std::vector<Term> terms;
  std::vector<Accumulator> fields;
};

bool is_tensor(Ty t) { return t && t->kind == TyKind::Tensor; }

// True for a tensor or a (nested) tuple of tensors: what gradients are defined for.
bool differentiable_type(Ty t) {
  if (is_tensor(t)) return true;
  const TupleTy* tuple = ty_as<TupleTy>(t);
  if (!tuple) return false;
  for (Ty f : tuple->fields)
    if (!differentiable_type(f)) return false;
  return true;
}

Accumulator empty_accumulator(Ty t) {
  Accumulator a;
  if (const TupleTy* tuple = ty_as<TupleTy>(t))
    for (Ty f : tuple->fields) a.fields.push_back(empty_accumulator(f));
  return a;
}

bool has_terms(const Accumulator& a) {
  if (!a.terms.empty()) return true;
  for (const Accumulator& f : a.fields)
    if (has_terms(f)) return true;
  return false;
}

class FirstOrder {
 public:
  FirstOrder(const FuncDef& def, const InferredTypes& types, const SourceFile& file, DiagnosticBag& diags)
      : def_(def), types_(types), file_(file), diags_(diags) {}

  std::optional<std::string> run(std::string_view name) {
    size_t errors_before = diags_.error_count();
    choose_prefixes();
    std::vector<int> params;
    for (const VarDecl* p : def_.fn->params) {
      Ty t = types_.type_of(p);
      if (!is_tensor(t)) {
        refuse(p->span, "parameter `%" + std::string(p->name) + "` is not a tensor",
               "gradients are taken with respect to tensor parameters");
        bound_[p] = stand_in();
        continue;
      }
      params.push_back(add_value(Value(Value::Kind::Param, "%" + std::string(p->name), t)));
      bound_[p] = params.back();
    }
    int result = value_of(def_.fn->body);
    if (diags_.error_count() > errors_before) return std::nullopt;

    backward(result);
    if (diags_.error_count() > errors_before) return std::nullopt;

    std::string out = "def @" + std::string(name) + "(";
    std::string grad_types, grad_atoms;
    for (size_t i = 0; i < params.size(); ++i) {
      const Value& p = values_[params[i]];
      std::string sep = i ? ", " : "";
      out += sep + p.atom + ": " + type_to_string(p.type);
      grad_types += sep + type_to_string(p.type);
      grad_atoms += sep + total_of_param(params[i]);
    }
    if (params.size() == 1) {  // a one-element tuple needs its comma
      grad_types += ",";
      grad_atoms += ",";
    }
    out += ") -> (" + type_to_string(values_[result].type) + ", (" + grad_types + ")) {\n";
    out += forward_ + backward_;
    out += "  (" + values_[result].atom + ", (" + grad_atoms + "))\n}\n";
    return out;
  }

 private:
  // Atoms are `%<prefix><n>`; prefixes no parameter name starts with, so they cannot clash.
  void choose_prefixes() {
    auto clashes = [&](const std::string& prefix) {
      for (const VarDecl* p : def_.fn->params)
        if (p->name.substr(0, prefix.size()) == prefix) return true;
      return false;
    };
    while (clashes(forward_prefix_)) forward_prefix_ += "_";
    while (clashes(backward_prefix_)) backward_prefix_ += "_";
  }

  int add_value(Value v) {
    values_.push_back(std::move(v));
    return static_cast<int>(values_.size()) - 1;
  }

  // Once per place and reason: a function literal inlined at several calls is walked
  // once per call.
  void refuse(Span where, const std::string& why, const std::string& label) {
    if (!refused_.insert({where.file, where.begin, where.end, why}).second) return;
    diags_.emit(DiagKind::NotDifferentiable, where, {std::string(def_.name), why, label});
  }

  // Binds `text` in the forward pass and returns the new value's atom.
  std::string bind_forward(const std::string& text) {
    std::string atom = "%" + forward_prefix_ + std::to_string(forward_count_++);
    forward_ += "  let " + atom + " = " + text + ";\n";
    return atom;
  }
  std::string bind_backward(const Term& term) {
    if (term.text.size() > 1 && term.text[0] == '%' && term.text.find('(') == std::string::npos) return term.text;
    std::string atom = "%" + backward_prefix_ + std::to_string(backward_count_++);
    backward_ += "  let " + atom + " = " + term.text + ";\n";
    return atom;
  }

  // The value an expression evaluates to, its forward computation emitted. After
  // reporting why it cannot be differentiated, a stand-in (a constant, so nothing flows
  // into it) lets the walk go on to report the function's other problems.
  int value_of(const Expr* e) {
    switch (e->kind) {
      case ExprKind::Constant:
        return add_value(Value(Value::Kind::Constant, format_constant(as<ConstantExpr>(e)), types_.type_of(e)));
      case ExprKind::MetaRef:
        return add_value(Value(Value::Kind::Constant, std::string(file_.slice(e->span)), types_.type_of(e)));
      case ExprKind::LocalRef: {
        auto it = bound_.find(as_ref(e)->decl);
        if (it != bound_.end()) return it->second;
        if (functions_.count(as_ref(e)->decl))
          return unsupported(e, "a function used as a value", "only calls of a function literal are inlined");
        refuse(e->span, "it uses a variable bound outside the function", "bound outside");
        return stand_in();
      }
      case ExprKind::Block: return block_value(*as<BlockExpr>(e));
      case ExprKind::Call: return call_value(*as<CallExpr>(e));
      case ExprKind::Tuple: {
        Value v(Value::Kind::Tuple, "", types_.type_of(e));
        std::string text = "(";
        const TupleExpr* t = as<TupleExpr>(e);
        for (const Expr* f : t->fields) {
          int field = value_of(f);
          v.inputs.push_back(field);
          text += (v.inputs.size() > 1 ? ", " : "") + values_[field].atom;
        }
        text += t->fields.size() == 1 ? ",)" : ")";
        v.atom = bind_forward(text);
        return add_value(std::move(v));
      }
      case ExprKind::TupleGetItem: {
        const TupleGetItemExpr* g = as<TupleGetItemExpr>(e);
        int tuple = value_of(g->tuple);
        Value v(Value::Kind::Project, "", types_.type_of(e));
        v.inputs = {tuple};
        v.index = g->index;
        v.atom = bind_forward(values_[tuple].atom + "." + std::to_string(g->index));
        return add_value(std::move(v));
      }
      case ExprKind::If: return unsupported(e, "`if`", "control flow is not differentiated yet");
      case ExprKind::Match: return unsupported(e, "`match`", "control flow is not differentiated yet");
      case ExprKind::Function:
        return unsupported(e, "a function literal as a value", "only a let-bound literal's calls are inlined");
      case ExprKind::GlobalRef:
        return unsupported(e, "a global function as a value", "only operators are differentiated");
      case ExprKind::RefCreate:
      case ExprKind::RefRead:
      case ExprKind::RefWrite: return unsupported(e, "a reference", "references are not differentiated");
      case ExprKind::CtorRef: return unsupported(e, "a constructor", "ADTs are not differentiated yet");
      default: return unsupported(e, "this expression", "not differentiable");
    }
  }

  int unsupported(const Expr* e, const std::string& what, const std::string& label) {
    refuse(e->span, "first-order differentiation does not support " + what, label);
    return stand_in();
  }

  int stand_in() { return add_value(Value(Value::Kind::Constant, "<error>", nullptr)); }

  int block_value(const BlockExpr& b) {
    for (const Binding& binding : b.bindings) {
      if (binding.kind == BindingKind::Sequence || binding.kind == BindingKind::FreeVar) {
        refuse(binding.span, "a binding for effect or a free variable is not differentiable", "here");
        if (binding.var) bound_[binding.var] = stand_in();
        continue;
      }
      // A function literal is not a value here: its calls are inlined (TVM's first-order
      // mode does the same), so it is only remembered.
      if (const FunctionExpr* fn = as<FunctionExpr>(binding.value)) {
        functions_[binding.var] = fn;
        continue;
      }
      bound_[binding.var] = value_of(binding.value);
    }
    return value_of(b.result);
  }

  // `fn(args)`: the body evaluated with the parameters bound to the arguments' values.
  int inline_call(const CallExpr& c, const FunctionExpr& fn) {
    for (const FunctionExpr* active : inlining_)
      if (active == &fn) return unsupported(&c, "a recursive call", "this call recurses");
    if (fn.params.size() != c.args.size()) return stand_in();  // the checker reported it
    std::vector<int> args;
    for (const Expr* a : c.args) args.push_back(value_of(a));
    for (size_t i = 0; i < args.size(); ++i) bound_[fn.params[i]] = args[i];
    inlining_.push_back(&fn);
    int result = value_of(fn.body);
    inlining_.pop_back();
    return result;
  }

  int call_value(const CallExpr& c) {
    const RefExpr* callee = as_ref(c.callee);
    if (const FunctionExpr* fn = as<FunctionExpr>(c.callee)) return inline_call(c, *fn);
    if (callee && callee->kind == ExprKind::LocalRef) {
      auto it = functions_.find(callee->decl);
      if (it != functions_.end()) return inline_call(c, *it->second);
    }
    if (!callee || c.callee->kind != ExprKind::OpRef || !callee->op) {
      if (callee && callee->kind == ExprKind::GlobalRef)
        return unsupported(&c, "calls of other global functions", "a call of a global function");
      if (callee && callee->kind == ExprKind::CtorRef) return unsupported(&c, "constructors", "an ADT value");
      return unsupported(&c, "calls of closures", "a call of a closure");
    }
    Value v(Value::Kind::Call, "", types_.type_of(&c));
    v.call = &c;
    v.op = callee->op;
    std::string args_text;
    for (const Expr* a : c.args) {
      int in = value_of(a);
      v.inputs.push_back(in);
      args_text += (v.inputs.size() > 1 ? ", " : "") + values_[in].atom;
    }
    DiagnosticBag ignored;  // the checker reported bad attributes already
    check_call_attrs(*v.op, c, v.attrs, ignored);
    if (c.attrs_meta) v.attrs_meta = std::string(file_.slice(c.attrs_meta->span));
    for (const Attr& a : c.attrs) v.written_attrs.emplace_back(std::string(a.key), print_attr_value(a.value));
    if (!differentiable_type(v.type)) {
      refuse(c.span, "the result of `" + std::string(v.op->name) + "` is not a tensor", "this call");
    } else if (!find_gradient(*v.op)) {
      refuse(c.callee_span.size() ? c.callee_span : c.callee->span,
             "operator `" + std::string(v.op->name) + "` has no gradient", "no gradient rule for this operator");
    }
    std::string attrs = v.attrs_meta.empty() ? join_attrs(v.written_attrs) : v.attrs_meta;
    std::string text = std::string(v.op->name) + "(" + args_text;
    if (!attrs.empty()) text += (args_text.empty() ? "" : ", ") + attrs;
    v.atom = bind_forward(text + ")");
    int id = add_value(std::move(v));
    // Ask the rule now whether it covers this call, so a refusal is reported with the
    // other problems rather than after them (the backward pass asks again, with the
    // real incoming gradient).
    if (find_gradient(*values_[id].op) && differentiable_type(values_[id].type) && inputs_known(values_[id]))
      rule_result(values_[id], "%grad", false);
    return id;
  }

  bool inputs_known(const Value& v) const {
    for (int in : v.inputs)
      if (!values_[in].type) return false;
    return true;
  }

  // The call's rule applied to `grad_atom`; a refusal is reported (empty grads).
  // `emit`: bind the rule's shared terms in the backward pass (false for the dry run of
  // the forward walk, which only wants a refusal).
  GradientResult rule_result(const Value& v, const std::string& grad_atom, bool emit) {
    GradientCall gc{*v.op, v.attrs, v.written_attrs, {}, {}, Term{v.atom}, v.type, Term{grad_atom}, {}};
    gc.bind = [this, emit](const Term& t) { return emit ? Term{bind_backward(t)} : t; };
    for (int in : v.inputs) {
      gc.inputs.push_back(Term{values_[in].atom});
      gc.input_types.push_back(values_[in].type);
    }
    GradientResult r = find_gradient(*v.op)->build(gc);
    if (!r.error.empty()) {
      refuse(v.call->span, "the gradient of `" + std::string(v.op->name) + "` is " + r.error, "this call");
      r.grads.clear();
    }
    return r;
  }

  // Seeds the result, then runs the values in reverse, each handing its total gradient
  // to its inputs.
  void backward(int result) {
    acc_.reserve(values_.size());
    for (const Value& v : values_) acc_.push_back(empty_accumulator(v.type));
    seed(acc_[result], values_[result].atom, values_[result].type);
    for (int id = static_cast<int>(values_.size()) - 1; id >= 0; --id) {
      const Value& v = values_[id];
      if (v.kind == Value::Kind::Param || v.kind == Value::Kind::Constant || !has_terms(acc_[id])) continue;
      if (v.kind == Value::Kind::Call) {
        propagate_call(v, total(acc_[id], v.atom, v.type));
      } else if (v.kind == Value::Kind::Tuple) {
        for (size_t i = 0; i < v.inputs.size(); ++i) {
          std::string field_atom = v.atom + "." + std::to_string(i);
          std::string g = total(acc_[id].fields[i], field_atom, values_[v.inputs[i]].type);
          add_to(v.inputs[i], g);
        }
      } else {  // Project
        std::string g = total(acc_[id], v.atom, v.type);
        int tuple = v.inputs[0];
        acc_[tuple].fields[v.index].terms.push_back(Term{g});
      }
    }
  }

  // Every tensor of the result starts with a gradient of ones.
  void seed(Accumulator& a, const std::string& atom, Ty t) {
    if (const TupleTy* tuple = ty_as<TupleTy>(t)) {
      for (size_t i = 0; i < tuple->fields.size(); ++i)
        seed(a.fields[i], atom + "." + std::to_string(i), tuple->fields[i]);
      return;
    }
    a.terms.push_back(call("ones_like", {Term{atom}}));
  }

  void add_to(int value, const std::string& grad_atom) {
    if (values_[value].kind == Value::Kind::Constant) return;
    Accumulator& a = acc_[value];
    if (a.fields.empty()) {
      a.terms.push_back(Term{grad_atom});
      return;
    }
    // A whole tuple's gradient (from a tuple passed through): split into its fields.
    for (size_t i = 0; i < a.fields.size(); ++i) a.fields[i].terms.push_back(Term{grad_atom + "." + std::to_string(i)});
  }

  // The sum of an accumulator's terms as an atom (zeros for none); a tuple's as a tuple.
  std::string total(const Accumulator& a, const std::string& atom, Ty t) {
    if (const TupleTy* tuple = ty_as<TupleTy>(t)) {
      std::string text = "(";
      for (size_t i = 0; i < tuple->fields.size(); ++i)
        text += (i ? ", " : "") + total(a.fields[i], atom + "." + std::to_string(i), tuple->fields[i]);
      return bind_backward(Term{text + (tuple->fields.size() == 1 ? ",)" : ")")});
    }
    if (a.terms.empty()) return bind_backward(call("zeros_like", {Term{atom}}));
    Term sum = a.terms[0];
    for (size_t i = 1; i < a.terms.size(); ++i) sum = call("add", {sum, a.terms[i]});
    return bind_backward(sum);
  }

  std::string total_of_param(int id) { return total(acc_[id], values_[id].atom, values_[id].type); }

  void propagate_call(const Value& v, const std::string& grad_atom) {
    GradientResult r = rule_result(v, grad_atom, true);
    for (size_t i = 0; i < v.inputs.size() && i < r.grads.size(); ++i) {
      if (values_[v.inputs[i]].kind == Value::Kind::Constant) continue;
      add_to(v.inputs[i], bind_backward(r.grads[i]));
    }
  }

  const FuncDef& def_;
  const InferredTypes& types_;
  const SourceFile& file_;
  DiagnosticBag& diags_;
  std::vector<Value> values_;
  std::vector<Accumulator> acc_;
  std::unordered_map<const VarDecl*, int> bound_;
  std::unordered_map<const VarDecl*, const FunctionExpr*> functions_;  // let-bound literals
  std::vector<const FunctionExpr*> inlining_;  // the literals being inlined, innermost last
  std::set<std::tuple<FileId, uint32_t, uint32_t, std::string>> refused_;
  std::string forward_prefix_ = "fw", backward_prefix_ = "bw";
  int forward_count_ = 0, backward_count_ = 0;
  std::string forward_, backward_;
};

}  // namespace

std::optional<std::string> first_order_gradient(const FuncDef& def, const InferredTypes& types,
                                                const SourceFile& file, std::string_view name,
                                                DiagnosticBag& diags) {
  return FirstOrder(def, types, file, diags).run(name);
}

std::string insert_definition(const Module& module, const SourceFile& file, const std::string& gradient_def) {
  size_t at = module.metadata_span.size() > 0 ? module.metadata_span.begin : file.text.size();
  std::string before = file.text.substr(0, at);
  while (!before.empty() && (before.back() == '\n' || before.back() == ' ' || before.back() == '\t'))
    before.pop_back();
  std::string out = before + "\n\n" + gradient_def;
  if (at < file.text.size()) out += "\n" + file.text.substr(at);
  return out;
}

}  // namespace relay::autodiff
