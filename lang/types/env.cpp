#include "lang/types/env.h"

#include <set>

#include "lang/types/lower.h"

namespace relay {

namespace {

void collect_dim_names(Ty t, std::set<std::string>& out) {
  switch (t->kind) {
    case TyKind::Tensor:
      for (const Dim& d : static_cast<const TensorTy*>(t)->shape)
        if (!d.is_any() && !d.is_constant())
          for (auto& s : d.symbols()) out.insert(s);
      return;
    case TyKind::Tuple:
      for (Ty f : static_cast<const TupleTy*>(t)->fields) collect_dim_names(f, out);
      return;
    case TyKind::Func: {
      auto* f = static_cast<const FuncTy*>(t);
      for (Ty p : f->params) collect_dim_names(p, out);
      collect_dim_names(f->ret, out);
      return;
    }
    case TyKind::Adt:
      for (Ty a : static_cast<const AdtTy*>(t)->args) collect_dim_names(a, out);
      return;
    case TyKind::Ref: collect_dim_names(static_cast<const RefTy*>(t)->value, out); return;
    default: return;
  }
}

}  // namespace

std::shared_ptr<GlobalSignature> build_signature(const FuncDef& def, CheckEnv& env) {
  auto sig = std::make_shared<GlobalSignature>();
  sig->def = &def;
  sig->arena = std::make_shared<TypeArena>();
  TypeArena& arena = *sig->arena;
  LowerScope scope;
  scope.adt = [&env](const TypeDef* d) { return env.adt(d); };
  scope.fresh = [&arena] { return arena.hole(kUnannotatedHole); };
  std::vector<const TyParamDecl*> tps;
  const FunctionExpr* fn = def.fn;
  for (const TypeParam* p : fn->type_params) {
    const TyParamDecl* d = arena.new_param_decl(p->name);
    scope.params[p] = d;
    tps.push_back(d);
  }
  std::vector<Ty> params;
  std::set<std::string> dims;
  for (const VarDecl* v : fn->params) {
    params.push_back(lower_type(v->annotation, arena, scope));
    collect_dim_names(params.back(), dims);
  }
  Ty ret = lower_type(fn->ret_type, arena, scope);
  sig->type = static_cast<const FuncTy*>(
      arena.func(std::span<const TyParamDecl* const>(tps.data(), tps.size()),
                 std::span<const Ty>(params.data(), params.size()), ret));
  sig->dim_names.assign(dims.begin(), dims.end());
  return sig;
}

void build_adt(const TypeDef& def, AdtInfo& info, TypeArena& arena, CheckEnv& env) {
  info.name = def.name;
  info.def = &def;
  info.is_extern = def.is_extern;
  LowerScope scope;
  scope.adt = [&env](const TypeDef* d) { return env.adt(d); };
  for (const TypeParam* p : def.type_params) {
    const TyParamDecl* decl = arena.new_param_decl(p->name);
    scope.params[p] = decl;
    info.params.push_back(decl);
  }
  std::vector<Ty> self_args;
  for (const TyParamDecl* p : info.params) self_args.push_back(arena.param(p));
  Ty self = arena.adt(&info, std::span<const Ty>(self_args.data(), self_args.size()));
  uint32_t tag = 0;
  for (const CtorDef* c : def.ctors) {
    auto ctor = std::make_unique<CtorInfo>();
    ctor->name = c->name;
    ctor->tag = tag++;
    ctor->adt = &info;
    ctor->def = c;
    for (const Type* f : c->fields) ctor->fields.push_back(lower_type(f, arena, scope));
    ctor->type = arena.func(std::span<const TyParamDecl* const>(info.params.data(), info.params.size()),
                            std::span<const Ty>(ctor->fields.data(), ctor->fields.size()), self);
    info.ctors.push_back(std::move(ctor));
  }
}

ModuleEnv::ModuleEnv(const Module& module, std::vector<const Module*> imports) {
  metadata_ = module.metadata.get();
  std::vector<const Module*> all = imports;
  all.push_back(&module);
  std::vector<const TypeDef*> types;
  for (const Module* m : all)
    for (const Definition& d : m->defs) {
      if (d.kind == Definition::Type) types.push_back(d.type);
      else funcs_[d.func->name] = d.func;  // the importing module's definitions win
    }
  adts_.build(types, *arena_, *this);
}

const GlobalSignature* ModuleEnv::global(std::string_view name) {
  if (auto it = sigs_.find(name); it != sigs_.end()) return it->second.get();
  auto f = funcs_.find(name);
  if (f == funcs_.end()) return nullptr;
  auto sig = build_signature(*f->second, *this);
  return (sigs_[name] = std::move(sig)).get();
}

const AdtInfo* ModuleEnv::adt(const TypeDef* def) { return adts_.adt(def); }

const CtorInfo* ModuleEnv::ctor(const CtorDef* def) { return adts_.ctor(def); }

void AdtTable::build(std::span<const TypeDef* const> defs, TypeArena& arena, CheckEnv& env) {
  built_ = true;
  for (const TypeDef* d : defs) {
    adts_.push_back(std::make_unique<AdtInfo>());
    by_def_[d] = adts_.back().get();
  }
  for (size_t i = 0; i < defs.size(); ++i) {
    build_adt(*defs[i], *adts_[i], arena, env);
    for (const auto& c : adts_[i]->ctors) ctor_by_def_[c->def] = c.get();
  }
}

const AdtInfo* AdtTable::adt(const TypeDef* def) const {
  auto it = by_def_.find(def);
  return it == by_def_.end() ? nullptr : it->second;
}

const CtorInfo* AdtTable::ctor(const CtorDef* def) const {
  auto it = ctor_by_def_.find(def);
  return it == ctor_by_def_.end() ? nullptr : it->second;
}

}  // namespace relay
