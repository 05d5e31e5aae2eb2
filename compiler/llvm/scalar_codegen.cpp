// Scalar functions to native control flow (scalar_codegen.h).
//
// Each global in the call graph becomes an internal LLVM function
//   RET f(ptr status, i64 depth, i64 stack_limit, PARAMS...)
// whose body is the Relay body walked once: lets bind LLVM values, `if` becomes branches
// and a phi, an operator call becomes the element-wise lowering's loop-IR expression for
// that operator (emitted by the kernels' own expression code generator, cg::Emitter), and
// a call of a global becomes a native call followed by a check of *status. The entry
//   i32 SYMBOL(ptr args, ptr out, i64 stack_limit)
// unboxes the arguments, calls the root and returns the status.
#include "compiler/llvm/scalar_codegen.h"

#include <chrono>
#include <deque>
#include <optional>
#include <unordered_map>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "compiler/llvm/codegen_internal.h"
#include "compiler/llvm/jit.h"
#include "compiler/loops/elementwise_internal.h"
#include "lang/ops/op_registry.h"
#include "lang/types/type.h"

namespace relay::compiler {
namespace {

// A refusal: the function (or a callee) is not a scalar function; `reason` is for people.
struct Refused {
  std::string reason;
};
[[noreturn]] void refuse(std::string reason) { throw Refused{std::move(reason)}; }

bool scalar_dtype(DataType t) {
  if (t.lanes != 1) return false;
  if (t.is_bool()) return true;
  if (t.code == DataType::Int || t.code == DataType::UInt) return t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
  return t.code == DataType::Float && (t.bits == 32 || t.bits == 64);
}

std::optional<DataType> scalar_type(Ty t) {
  const auto* tt = t ? ty_as<TensorTy>(t) : nullptr;
  if (!tt || tt->rank() != 0 || !scalar_dtype(tt->dtype)) return std::nullopt;
  return tt->dtype;
}

// A value of the function being emitted: its LLVM value (i1 for bool) and dtype.
struct Sv {
  llvm::Value* v = nullptr;
  DataType t;
};

class ScalarModuleBuilder {
 public:
  ScalarModuleBuilder(llvm::Module& m, const TypesOf& types, const TargetAttrs& target, std::string prefix)
      : m_(m), ctx_(m.getContext()), types_(types), target_(target), prefix_(std::move(prefix)) {}

  // The native function of `def` (declared now, defined by define_all): refuses a global
  // whose signature is not scalar.
  size_t declare(const FuncDef* def) {
    if (auto it = index_.find(def); it != index_.end()) return it->second;
    const std::string name = "@" + std::string(def->name);
    const FunctionExpr* f = def->fn;
    if (!f) refuse(name + " has no body");
    if (!f->type_params.empty()) refuse(name + " is polymorphic");
    const InferredTypes* ty = types_ ? types_(def) : nullptr;
    if (!ty) refuse(name + " has no checked types");
    Fn fn{def, ty, nullptr, {}, {}};
    for (const VarDecl* p : f->params) {
      auto t = scalar_type(ty->type_of(p));
      if (!t) refuse(name + ": parameter %" + std::string(p->name) + " is not a scalar");
      fn.params.push_back(*t);
    }
    auto r = scalar_type(ty->type_of(f->body));
    if (!r) refuse(name + ": the result is not a scalar");
    fn.result = *r;

    loops::Kernel scratch;
    cg::Emitter em(m_, scratch);
    std::vector<llvm::Type*> params = {llvm::PointerType::get(ctx_, 0), llvm::Type::getInt64Ty(ctx_),
                                       llvm::Type::getInt64Ty(ctx_)};
    for (DataType t : fn.params) params.push_back(em.value_type(t));
    auto* type = llvm::FunctionType::get(em.value_type(fn.result), params, false);
    fn.fn = llvm::Function::Create(type, llvm::Function::InternalLinkage, prefix_ + "." + std::string(def->name), m_);
    set_attrs(fn.fn);
    fn.fn->addParamAttr(0, llvm::Attribute::NoAlias);
    fn.fn->addParamAttr(0, llvm::Attribute::NoCapture);
    index_[def] = fns_.size();
    fns_.push_back(fn);
    pending_.push_back(fns_.size() - 1);
    return fns_.size() - 1;
  }

  void define_all() {
    while (!pending_.empty()) {
      size_t i = pending_.front();
      pending_.pop_front();
      define(i);
    }
  }

  size_t functions() const { return fns_.size(); }

  // i32 symbol(ptr args, ptr out, i64 stack_limit)
  void emit_entry(size_t root, const std::string& symbol) {
    const Fn f = fns_[root];
    loops::Kernel scratch;
    cg::Emitter em(m_, scratch);
    llvm::IRBuilder<>& b = em.builder();
    llvm::Type* ptr = b.getPtrTy();
    auto* type = llvm::FunctionType::get(b.getInt32Ty(), {ptr, ptr, b.getInt64Ty()}, false);
    llvm::Function* entry = llvm::Function::Create(type, llvm::Function::ExternalLinkage, symbol, m_);
    set_attrs(entry);
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", entry));
    llvm::Value* status = b.CreateAlloca(b.getInt32Ty(), nullptr, "status");
    b.CreateStore(b.getInt32(0), status);
    std::vector<llvm::Value*> args = {status, b.getInt64(0), entry->getArg(2)};
    for (size_t i = 0; i < f.params.size(); ++i) {
      llvm::Value* slot = b.CreateConstInBoundsGEP1_64(ptr, entry->getArg(0), i);
      llvm::Value* v = b.CreateLoad(em.memory_type(f.params[i]), b.CreateLoad(ptr, slot));
      if (f.params[i].is_bool()) v = b.CreateICmpNE(v, b.getInt8(0));  // any non-zero byte is true
      args.push_back(v);
    }
    llvm::Value* r = b.CreateCall(f.fn, args);
    if (f.result.is_bool()) r = b.CreateZExt(r, b.getInt8Ty());
    b.CreateStore(r, entry->getArg(1));
    b.CreateRet(b.CreateLoad(b.getInt32Ty(), status));
  }

 private:
  struct Fn {
    const FuncDef* def;
    const InferredTypes* types;
    llvm::Function* fn;
    std::vector<DataType> params;
    DataType result;
  };

  // The state of the function being defined.
  struct Body {
    const Fn* fn;
    loops::Kernel kernel;  // owns the loop-IR variables of operator expansions
    std::unique_ptr<cg::Emitter> em;
    std::unordered_map<const VarDecl*, Sv> env;
    llvm::BasicBlock* bail = nullptr;     // return at once (the status is set)
    llvm::BasicBlock* op_fail = nullptr;  // status = kScalarFailed, then bail
  };

  void set_attrs(llvm::Function* f) {
    if (!target_.cpu.empty()) f->addFnAttr("target-cpu", target_.cpu);
    if (!target_.features.empty()) f->addFnAttr("target-features", target_.features);
    f->setDoesNotThrow();  // errors travel in *status, never as exceptions
  }

  llvm::IRBuilder<>& b() { return body_->em->builder(); }
  llvm::Function* fn() { return body_->fn->fn; }
  llvm::BasicBlock* block(const char* name) { return llvm::BasicBlock::Create(ctx_, name, fn()); }

  llvm::BasicBlock* bail() {
    if (!body_->bail) {
      llvm::IRBuilderBase::InsertPointGuard guard(b());
      body_->bail = block("bail");
      b().SetInsertPoint(body_->bail);
      b().CreateRet(llvm::Constant::getNullValue(fn()->getReturnType()));
    }
    return body_->bail;
  }
  llvm::BasicBlock* op_fail() {
    if (!body_->op_fail) {
      llvm::IRBuilderBase::InsertPointGuard guard(b());
      body_->op_fail = block("op_fail");
      b().SetInsertPoint(body_->op_fail);
      b().CreateStore(b().getInt32(kScalarFailed), fn()->getArg(0));
      b().CreateBr(bail());
    }
    return body_->op_fail;
  }
  // Continues in a new block when `failed` is false; rare failures go to `target`.
  void branch_unless(llvm::Value* failed, llvm::BasicBlock* target, const char* name) {
    llvm::BasicBlock* ok = block(name);
    llvm::MDBuilder md(ctx_);
    b().CreateCondBr(failed, target, ok, md.createBranchWeights(1, 1 << 20));
    b().SetInsertPoint(ok);
  }

  void define(size_t i) {
    Body body;
    body.fn = &fns_[i];
    body.kernel.name = std::string(fns_[i].def->name);
    body.em = std::make_unique<cg::Emitter>(m_, body.kernel);
    body_ = &body;
    llvm::Function* f = fns_[i].fn;
    body.em->enter_function(f);
    b().SetInsertPoint(block("entry"));
    // The depth bound and the stack budget: native frames live on the machine stack.
    llvm::Value* sp = b().CreatePtrToInt(b().CreateStackSave(), b().getInt64Ty());
    llvm::Value* too_deep = b().CreateOr(b().CreateICmpSGT(f->getArg(1), b().getInt64(kMaxNativeDepth)),
                                         b().CreateICmpULT(sp, f->getArg(2)));
    llvm::BasicBlock* deep = block("too_deep");
    branch_unless(too_deep, deep, "body");
    {
      llvm::IRBuilderBase::InsertPointGuard guard(b());
      b().SetInsertPoint(deep);
      b().CreateStore(b().getInt32(kScalarTooDeep), f->getArg(0));
      b().CreateBr(bail());
    }
    const FunctionExpr* fe = fns_[i].def->fn;
    for (size_t p = 0; p < fe->params.size(); ++p)
      body.env[fe->params[p]] = Sv{f->getArg(static_cast<unsigned>(p + 3)), fns_[i].params[p]};
    Sv r = expr(fe->body);
    if (!(r.t == fns_[i].result)) refuse("@" + std::string(fns_[i].def->name) + ": the result's dtype differs");
    b().CreateRet(r.v);
    body_ = nullptr;
  }

  DataType type_of(const Expr* e, const char* what) {
    auto t = scalar_type(body_->fn->types->type_of(e));
    if (!t) refuse(std::string(what) + " that is not a scalar (in @" + std::string(body_->fn->def->name) + ")");
    return *t;
  }

  Sv expr(const Expr* e) {
    switch (e->kind) {
      case ExprKind::Constant: {
        auto* c = static_cast<const ConstantExpr*>(e);
        DataType t = type_of(e, "a literal");
        if (!(t == c->dtype)) refuse("a literal whose type is not its dtype");
        llvm::Type* lt = body_->em->value_type(t);
        if (t.is_float()) return {llvm::ConstantFP::get(lt, c->float_value), t};
        return {llvm::ConstantInt::get(lt, static_cast<uint64_t>(c->int_value), t.is_int()), t};
      }
      case ExprKind::LocalRef: {
        auto it = body_->env.find(static_cast<const RefExpr*>(e)->decl);
        if (it == body_->env.end()) refuse("a variable that is not a scalar value");
        return it->second;
      }
      case ExprKind::Block: {
        auto* blk = static_cast<const BlockExpr*>(e);
        for (const Binding& binding : blk->bindings) {
          if (binding.kind == BindingKind::FreeVar) refuse("a free variable");
          // A Sequence binding is evaluated too: it may fail as the interpreter's would.
          Sv v = expr(binding.value);
          if (binding.var) body_->env[binding.var] = v;
        }
        return expr(blk->result);
      }
      case ExprKind::If: return if_expr(static_cast<const IfExpr*>(e));
      case ExprKind::Call: return call(static_cast<const CallExpr*>(e));
      case ExprKind::Tuple:
      case ExprKind::TupleGetItem: refuse("a tuple");
      case ExprKind::Match: refuse("`match`");
      case ExprKind::Function: refuse("a closure");
      case ExprKind::RefCreate:
      case ExprKind::RefRead:
      case ExprKind::RefWrite: refuse("references");
      case ExprKind::MetaRef: refuse("a metadata constant");
      case ExprKind::GlobalRef: refuse("a global used as a value");
      case ExprKind::OpRef: refuse("an operator used as a value");
      case ExprKind::CtorRef: refuse("an ADT constructor");
      case ExprKind::Error:
      case ExprKind::Ident: break;
    }
    refuse("an expression that did not resolve");
  }

  Sv if_expr(const IfExpr* e) {
    DataType t = type_of(e, "an `if`");
    Sv cond = expr(e->cond);
    if (!cond.t.is_bool()) refuse("an `if` condition that is not bool");
    llvm::BasicBlock* then_bb = block("then");
    llvm::BasicBlock* else_bb = block("else");
    llvm::BasicBlock* join = block("endif");
    b().CreateCondBr(cond.v, then_bb, else_bb);
    b().SetInsertPoint(then_bb);
    Sv a = expr(e->then_branch);
    llvm::BasicBlock* a_end = b().GetInsertBlock();
    b().CreateBr(join);
    b().SetInsertPoint(else_bb);
    Sv c = expr(e->else_branch);
    llvm::BasicBlock* c_end = b().GetInsertBlock();
    b().CreateBr(join);
    if (!(a.t == t) || !(c.t == t)) refuse("`if` branches of different dtypes");
    b().SetInsertPoint(join);
    llvm::PHINode* phi = b().CreatePHI(a.v->getType(), 2);
    phi->addIncoming(a.v, a_end);
    phi->addIncoming(c.v, c_end);
    return {phi, t};
  }

  Sv call(const CallExpr* c) {
    const auto* callee = as_ref(c->callee);
    if (callee && c->callee->kind == ExprKind::OpRef) return op_call(c, callee->op);
    if (callee && c->callee->kind == ExprKind::GlobalRef && callee->global) return global_call(c, callee->global);
    refuse("a call of a function value");
  }

  // One operator on scalars: the element-wise lowering's expansion of the operator.
  Sv op_call(const CallExpr* c, const OpInfo* op) {
    if (!op || !op->supported) refuse("an unsupported operator");
    const std::string name(op->name);
    // Attributes other than cast's dtype (taken from the checked type) are not carried.
    if (op->attrs && name != "cast") refuse("`" + name + "` (an operator with attributes)");
    if (c->attrs_meta) refuse("`" + name + "` with metadata attributes");
    DataType t = type_of(c, ("`" + name + "` on a value").c_str());
    std::vector<Sv> args;
    std::vector<DataType> dtypes;
    for (const Expr* a : c->args) {
      args.push_back(expr(a));
      dtypes.push_back(args.back().t);
    }
    if (!loops::elementwise_supports(name, dtypes.empty() ? t : dtypes[0]))
      refuse("`" + name + "` (not a lowered element-wise operator)");
    loops::EwStep step;
    step.op = name;
    for (size_t i = 0; i < args.size(); ++i) step.operands.push_back(loops::EwOperand::input(static_cast<int>(i)));
    step.dtype = t;
    loops::ew::Typing typing = loops::ew::type_step(step, dtypes);
    if (!typing.error.empty()) refuse("`" + name + "`: " + typing.error);
    if (!(typing.result == t)) refuse("`" + name + "`: an unexpected result dtype");

    loops::Kernel& k = body_->kernel;
    loops::Block lets;
    loops::ew::Emitter ew{k, lets, {}};
    std::vector<loops::Expr> operands;
    for (size_t i = 0; i < args.size(); ++i) {
      loops::Var v = loops::new_var(k, "a", dtypes[i]);
      body_->em->bind_var(v.id, args[i].v);
      operands.push_back(loops::var_ref(v));
    }
    loops::Expr r = loops::ew::emit_step(ew, step, operands);
    for (const loops::Stmt& s : lets)
      if (s.kind != loops::StmtKind::Let) refuse("`" + name + "` (its expansion is not an expression)");
    body_->em->emit_block(lets);
    if (!ew.failures.empty()) {
      llvm::Value* failed = body_->em->expr(ew.failures[0]);
      for (size_t i = 1; i < ew.failures.size(); ++i) failed = b().CreateOr(failed, body_->em->expr(ew.failures[i]));
      branch_unless(failed, op_fail(), "op_ok");
    }
    return {body_->em->expr(r), t};
  }

  Sv global_call(const CallExpr* c, const FuncDef* def) {
    std::vector<Sv> args;
    for (const Expr* a : c->args) args.push_back(expr(a));
    const size_t j = declare(def);  // a new callee is defined later (define_all's queue)
    const Fn& g = fns_[j];
    if (args.size() != g.params.size()) refuse("a call of @" + std::string(def->name) + " with the wrong arity");
    llvm::Function* f = fn();
    std::vector<llvm::Value*> values = {f->getArg(0), b().CreateAdd(f->getArg(1), b().getInt64(1)), f->getArg(2)};
    for (size_t i = 0; i < args.size(); ++i) {
      if (!(args[i].t == g.params[i])) refuse("a call of @" + std::string(def->name) + " with other dtypes");
      values.push_back(args[i].v);
    }
    llvm::Value* r = b().CreateCall(g.fn, values);
    llvm::Value* status = b().CreateLoad(b().getInt32Ty(), f->getArg(0));
    branch_unless(b().CreateICmpNE(status, b().getInt32(0)), bail(), "call_ok");
    return {r, g.result};
  }

  llvm::Module& m_;
  llvm::LLVMContext& ctx_;
  const TypesOf& types_;
  const TargetAttrs& target_;
  std::string prefix_;
  std::unordered_map<const FuncDef*, size_t> index_;
  std::deque<Fn> fns_;  // a deque: Body keeps a pointer to its Fn while callees are declared
  std::deque<size_t> pending_;
  Body* body_ = nullptr;
};

}  // namespace

ScalarFunction compile_scalar_function(const FuncDef& def, const TypesOf& types, Jit& jit, bool keep_llvm_ir) {
  const auto start = std::chrono::steady_clock::now();
  ScalarFunction out;
  try {
    auto ctx = std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::TargetMachine> tm = JitModules::machine(jit);
    auto m = std::make_unique<llvm::Module>("scalar_" + std::string(def.name), *ctx);
    m->setDataLayout(tm->createDataLayout());
    m->setTargetTriple(tm->getTargetTriple().str());
    out.symbol = JitModules::unique_symbol(jit, "scalar_" + std::string(def.name));
    {
      ScalarModuleBuilder builder(*m, types, JitModules::target(jit), out.symbol);
      const size_t root = builder.declare(&def);
      builder.define_all();
      builder.emit_entry(root, out.symbol);
      out.functions = builder.functions();
    }
    std::string problems;
    llvm::raw_string_ostream os(problems);
    if (llvm::verifyModule(*m, &os)) throw std::logic_error("scalar codegen made invalid IR: " + problems);
    optimize_module(*m, *tm, 2);
    if (keep_llvm_ir) out.llvm_ir = module_ir(*m);
    out.fn = reinterpret_cast<ScalarEntryFn>(JitModules::add(jit, std::move(ctx), std::move(m), out.symbol));
    // The signature, for the caller's unboxing.
    const InferredTypes* ty = types(&def);
    for (const VarDecl* p : def.fn->params) out.params.push_back(*scalar_type(ty->type_of(p)));
    out.result = *scalar_type(ty->type_of(def.fn->body));
  } catch (const Refused& r) {
    out.reason = r.reason;
  }
  out.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace relay::compiler
