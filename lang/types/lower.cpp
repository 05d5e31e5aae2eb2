#include "lang/types/lower.h"

#include "lang/syntax/dim_from_syntax.h"

namespace relay {

Ty lower_type(const Type* t, TypeArena& arena, const LowerScope& scope) {
  if (!t) return scope.fresh ? scope.fresh() : arena.error();
  switch (t->kind) {
    case TypeKind::Error: return arena.error();
    case TypeKind::Incomplete: return scope.fresh ? scope.fresh() : arena.error();
    case TypeKind::Tensor: {
      auto* tt = static_cast<const TensorType*>(t);
      std::vector<Dim> dims;
      dims.reserve(tt->shape.size());
      for (const DimExpr* d : tt->shape) {
        auto dim = dim_from_syntax(*d);
        dims.push_back(dim ? *dim : Dim::any());
      }
      return arena.tensor(std::span<const Dim>(dims.data(), dims.size()), tt->dtype);
    }
    case TypeKind::Tuple: {
      auto* tt = static_cast<const TupleType*>(t);
      std::vector<Ty> fields;
      for (const Type* f : tt->fields) fields.push_back(lower_type(f, arena, scope));
      return arena.tuple(std::span<const Ty>(fields.data(), fields.size()));
    }
    case TypeKind::Func: {
      auto* ft = static_cast<const FuncType*>(t);
      LowerScope inner = scope;
      std::vector<const TyParamDecl*> tps;
      for (const TypeParam* p : ft->type_params) {
        const TyParamDecl* d = arena.new_param_decl(p->name);
        inner.params[p] = d;
        tps.push_back(d);
      }
      std::vector<Ty> params;
      for (const Type* p : ft->params) params.push_back(lower_type(p, arena, inner));
      Ty ret = lower_type(ft->ret, arena, inner);
      return arena.func(std::span<const TyParamDecl* const>(tps.data(), tps.size()),
                        std::span<const Ty>(params.data(), params.size()), ret);
    }
    case TypeKind::Named: {
      auto* nt = static_cast<const NamedType*>(t);
      if (nt->param) {
        auto it = scope.params.find(nt->param);
        if (it != scope.params.end()) return arena.param(it->second);
        return arena.error();
      }
      if (nt->adt && scope.adt) {
        const AdtInfo* info = scope.adt(nt->adt);
        if (!info) return arena.error();
        std::vector<Ty> args;
        for (const Type* a : nt->args) args.push_back(lower_type(a, arena, scope));
        if (args.size() != info->params.size()) return arena.error();  // E0053 already
        return arena.adt(info, std::span<const Ty>(args.data(), args.size()));
      }
      return arena.error();
    }
    case TypeKind::Ref: {
      auto* rt = static_cast<const RefType*>(t);
      return arena.ref(lower_type(rt->value, arena, scope));
    }
  }
  return arena.error();
}

}  // namespace relay
