#include "lang/types/type.h"

#include <algorithm>

#include "lang/types/adt.h"

namespace relay {

namespace {
constexpr size_t kDimChunk = 4096;
}

TypeArena::TypeArena() : nodes_(1024) {
  unit_ = nodes_.make<TupleTy>();
  error_ = nodes_.make<ErrorTy>();
}

TypeArena::~TypeArena() = default;

std::span<const Dim> TypeArena::copy_dims(std::span<const Dim> dims) {
  if (dims.empty()) return {};
  if (dim_chunks_.empty() || dim_chunks_.back().capacity - dim_chunks_.back().used < dims.size()) {
    // Chunks grow from small: there is one arena per definition and per signature.
    size_t grown = dim_chunks_.empty() ? size_t{32} : dim_chunks_.back().capacity * 2;
    size_t cap = std::max(std::min(kDimChunk, grown), dims.size());
    dim_chunks_.push_back(DimChunk{std::make_unique<Dim[]>(cap), 0, cap});
  }
  DimChunk& c = dim_chunks_.back();
  Dim* out = c.dims.get() + c.used;
  std::copy(dims.begin(), dims.end(), out);
  c.used += dims.size();
  return {out, dims.size()};
}

Ty TypeArena::tensor(std::span<const Dim> shape, DataType dtype) {
  auto* t = nodes_.make<TensorTy>();
  t->dtype = dtype;
  t->shape = copy_dims(shape);
  return t;
}

Ty TypeArena::tuple(std::span<const Ty> fields) {
  if (fields.empty()) return unit_;
  auto* t = nodes_.make<TupleTy>();
  t->fields = nodes_.copy(fields.data(), fields.size());
  return t;
}

Ty TypeArena::func(std::span<const TyParamDecl* const> type_params, std::span<const Ty> params,
                   Ty ret, const OpInfo* op) {
  auto* t = nodes_.make<FuncTy>();
  t->type_params = nodes_.copy(type_params.data(), type_params.size());
  t->params = nodes_.copy(params.data(), params.size());
  t->ret = ret;
  t->op = op;
  return t;
}

Ty TypeArena::param(const TyParamDecl* decl) { return nodes_.make<ParamTy>(decl); }

Ty TypeArena::adt(const AdtInfo* adt, std::span<const Ty> args) {
  auto* t = nodes_.make<AdtTy>(adt);
  t->args = nodes_.copy(args.data(), args.size());
  return t;
}

Ty TypeArena::ref(Ty value) { return nodes_.make<RefTy>(value); }

Ty TypeArena::hole(uint32_t id) { return nodes_.make<HoleTy>(id); }

const TyParamDecl* TypeArena::new_param_decl(std::string_view name) {
  auto* d = nodes_.make<TyParamDecl>();
  d->name = nodes_.copy_string(name);
  return d;
}

size_t TypeArena::bytes_used() const {
  size_t dims = 0;
  for (const auto& c : dim_chunks_) dims += c.capacity * sizeof(Dim);
  return nodes_.bytes_used() + dims;
}

std::string shape_to_string(std::span<const Dim> shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += shape[i].to_string();
  }
  out += ")";
  return out;
}

namespace {

void print(std::string& out, Ty t) {
  if (!t) {
    out += "<null>";
    return;
  }
  switch (t->kind) {
    case TyKind::Tensor: {
      auto* tt = static_cast<const TensorTy*>(t);
      if (tt->shape.empty()) {
        out += dtype_name(tt->dtype);
        return;
      }
      out += "Tensor[";
      out += shape_to_string(tt->shape);
      out += ", ";
      out += dtype_name(tt->dtype);
      out += "]";
      return;
    }
    case TyKind::Tuple: {
      auto* tt = static_cast<const TupleTy*>(t);
      out += "(";
      for (size_t i = 0; i < tt->fields.size(); ++i) {
        if (i) out += ", ";
        print(out, tt->fields[i]);
      }
      // TVM prints a one-element tuple type with a trailing comma.
      if (tt->fields.size() == 1) out += ",";
      out += ")";
      return;
    }
    case TyKind::Func: {
      auto* ft = static_cast<const FuncTy*>(t);
      out += "fn ";
      if (!ft->type_params.empty()) {
        out += "[";
        for (size_t i = 0; i < ft->type_params.size(); ++i) {
          if (i) out += ", ";
          out += ft->type_params[i]->name;
        }
        out += "]";
      }
      out += "(";
      for (size_t i = 0; i < ft->params.size(); ++i) {
        if (i) out += ", ";
        print(out, ft->params[i]);
      }
      out += ") -> ";
      print(out, ft->ret);
      return;
    }
    case TyKind::Param:
      out += static_cast<const ParamTy*>(t)->decl->name;
      return;
    case TyKind::Adt: {
      auto* at = static_cast<const AdtTy*>(t);
      out += at->adt->name;
      out += "[";
      for (size_t i = 0; i < at->args.size(); ++i) {
        if (i) out += ", ";
        print(out, at->args[i]);
      }
      out += "]";
      return;
    }
    case TyKind::Ref:
      out += "ref(";
      print(out, static_cast<const RefTy*>(t)->value);
      out += ")";
      return;
    case TyKind::Hole:
      out += "_";  // an unknown prints as the annotation syntax for "infer this"
      return;
    case TyKind::Error:
      out += "<error>";
      return;
  }
}

}  // namespace

std::string type_to_string(Ty t) {
  std::string out;
  print(out, t);
  return out;
}

bool type_equal(Ty a, Ty b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
    case TyKind::Tensor: {
      auto* x = static_cast<const TensorTy*>(a);
      auto* y = static_cast<const TensorTy*>(b);
      return x->dtype == y->dtype && std::equal(x->shape.begin(), x->shape.end(),
                                                y->shape.begin(), y->shape.end());
    }
    case TyKind::Tuple: {
      auto* x = static_cast<const TupleTy*>(a);
      auto* y = static_cast<const TupleTy*>(b);
      return std::equal(x->fields.begin(), x->fields.end(), y->fields.begin(), y->fields.end(),
                        type_equal);
    }
    case TyKind::Func: {
      auto* x = static_cast<const FuncTy*>(a);
      auto* y = static_cast<const FuncTy*>(b);
      return x->type_params.size() == y->type_params.size() &&
             std::equal(x->params.begin(), x->params.end(), y->params.begin(), y->params.end(),
                        type_equal) &&
             type_equal(x->ret, y->ret);
    }
    case TyKind::Param:
      return static_cast<const ParamTy*>(a)->decl == static_cast<const ParamTy*>(b)->decl;
    case TyKind::Adt: {
      auto* x = static_cast<const AdtTy*>(a);
      auto* y = static_cast<const AdtTy*>(b);
      return x->adt == y->adt && std::equal(x->args.begin(), x->args.end(), y->args.begin(),
                                            y->args.end(), type_equal);
    }
    case TyKind::Ref:
      return type_equal(static_cast<const RefTy*>(a)->value, static_cast<const RefTy*>(b)->value);
    case TyKind::Hole:
      return static_cast<const HoleTy*>(a)->id == static_cast<const HoleTy*>(b)->id;
    case TyKind::Error:
      return true;
  }
  return false;
}

Ty map_type(Ty t, TypeArena& arena, const std::function<Ty(Ty)>& replace) {
  if (Ty r = replace(t)) return r;
  // Maps a list of children; true when any of them changed.
  auto map_all = [&](std::span<const Ty> in, std::vector<Ty>& out) {
    bool changed = false;
    for (Ty x : in) {
      out.push_back(map_type(x, arena, replace));
      changed |= out.back() != x;
    }
    return changed;
  };
  std::vector<Ty> children;
  switch (t->kind) {
    case TyKind::Tuple: {
      auto* tt = static_cast<const TupleTy*>(t);
      if (!map_all(tt->fields, children)) return t;
      return arena.tuple(std::span<const Ty>(children.data(), children.size()));
    }
    case TyKind::Func: {
      auto* ft = static_cast<const FuncTy*>(t);
      bool changed = map_all(ft->params, children);
      Ty ret = map_type(ft->ret, arena, replace);
      if (!changed && ret == ft->ret) return t;
      return arena.func(ft->type_params, std::span<const Ty>(children.data(), children.size()), ret, ft->op);
    }
    case TyKind::Adt: {
      auto* at = static_cast<const AdtTy*>(t);
      if (!map_all(at->args, children)) return t;
      return arena.adt(at->adt, std::span<const Ty>(children.data(), children.size()));
    }
    case TyKind::Ref: {
      auto* rt = static_cast<const RefTy*>(t);
      Ty v = map_type(rt->value, arena, replace);
      return v == rt->value ? t : arena.ref(v);
    }
    default:
      return t;
  }
}

bool is_ground(Ty t) {
  if (!t) return true;
  switch (t->kind) {
    case TyKind::Hole:
      return false;
    case TyKind::Tuple:
      for (Ty f : static_cast<const TupleTy*>(t)->fields)
        if (!is_ground(f)) return false;
      return true;
    case TyKind::Func: {
      auto* f = static_cast<const FuncTy*>(t);
      for (Ty p : f->params)
        if (!is_ground(p)) return false;
      return is_ground(f->ret);
    }
    case TyKind::Adt:
      for (Ty a : static_cast<const AdtTy*>(t)->args)
        if (!is_ground(a)) return false;
      return true;
    case TyKind::Ref:
      return is_ground(static_cast<const RefTy*>(t)->value);
    default:
      return true;
  }
}

}  // namespace relay

namespace relay {
bool dim_has_hole(const Dim& d) {
  if (d.is_any() || d.is_constant()) return false;
  for (const auto& s : d.symbols())
    if (!s.empty() && s[0] == kDimHolePrefix) return true;
  return false;
}

std::optional<uint32_t> dim_hole_index(const std::string& name) {
  if (name.size() < 2 || name[0] != kDimHolePrefix) return std::nullopt;
  return static_cast<uint32_t>(std::stoul(name.substr(1)));
}

std::string dim_hole_name(uint32_t index) { return std::string(1, kDimHolePrefix) + std::to_string(index); }
}  // namespace relay
