// Semantic types: what the type checker infers, as opposed to the type *syntax* of ast.h.
//
// A Ty is a pointer to an immutable node allocated in a TypeArena. Nodes are never
// mutated after construction; inference refines types through the solver's
// substitution (solver.h), and `Solver::resolve` produces hole-free copies.
//
// Forms (reference §2.1):
//   Tensor  dtype + shape of Dims (constant, `?`, or a polynomial over dimension names)
//   Tuple   fields; `()` is unit
//   Func    type parameters, parameters, result; an operator's type also carries its
//           relation so that an operator used as a value instantiates correctly
//   Param   a type parameter (`A` in `fn [A](A) -> A`, or an ADT's `a`), by identity
//   Adt     an applied ADT, `List[Tensor[(2), float32]]`
//   Ref     a mutable cell, printed `ref(T)`
//   Hole    an unknown being solved (TVM's IncompleteType); only inside a solver
//   Error   the type of an expression that already has an error: unifies with
//           everything, so one mistake gives one diagnostic
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lang/base/arena.h"
#include "lang/base/dim.h"
#include "lang/base/dtype.h"

namespace relay {

struct TypeDef;
struct CtorDef;
struct OpInfo;

enum class TyKind : uint8_t { Tensor, Tuple, Func, Param, Adt, Ref, Hole, Error };

struct TyNode {
  TyKind kind;
  explicit TyNode(TyKind k) : kind(k) {}
};
using Ty = const TyNode*;

struct TensorTy : TyNode {
  DataType dtype;
  std::span<const Dim> shape;
  TensorTy() : TyNode(TyKind::Tensor) {}
  size_t rank() const { return shape.size(); }
};

struct TupleTy : TyNode {
  std::span<const Ty> fields;
  TupleTy() : TyNode(TyKind::Tuple) {}
};

// A type parameter's identity. Two ParamTys are the same parameter iff `decl` is equal.
struct TyParamDecl {
  std::string_view name;
};

struct ParamTy : TyNode {
  const TyParamDecl* decl;
  explicit ParamTy(const TyParamDecl* d) : TyNode(TyKind::Param), decl(d) {}
};

struct FuncTy : TyNode {
  std::span<const TyParamDecl* const> type_params;
  std::span<const Ty> params;
  Ty ret = nullptr;
  // Set for an operator used as a first-class value: instantiating this type adds the
  // operator's relation over (params..., ret).
  const OpInfo* op = nullptr;
  FuncTy() : TyNode(TyKind::Func) {}
};

// An ADT as the checker sees it: header, type parameters and constructor field types
// written over those parameters. Built from a TypeDef (adt.h); shared between the
// definitions that use it.
struct AdtInfo;

struct AdtTy : TyNode {
  const AdtInfo* adt;
  std::span<const Ty> args;
  explicit AdtTy(const AdtInfo* a) : TyNode(TyKind::Adt), adt(a) {}
};

struct RefTy : TyNode {
  Ty value;
  explicit RefTy(Ty v) : TyNode(TyKind::Ref), value(v) {}
};

struct HoleTy : TyNode {
  uint32_t id;
  explicit HoleTy(uint32_t i) : TyNode(TyKind::Hole), id(i) {}
};

struct ErrorTy : TyNode {
  ErrorTy() : TyNode(TyKind::Error) {}
};

template <class T> struct TyKindOf;
template <> struct TyKindOf<TensorTy> { static constexpr TyKind value = TyKind::Tensor; };
template <> struct TyKindOf<TupleTy> { static constexpr TyKind value = TyKind::Tuple; };
template <> struct TyKindOf<FuncTy> { static constexpr TyKind value = TyKind::Func; };
template <> struct TyKindOf<ParamTy> { static constexpr TyKind value = TyKind::Param; };
template <> struct TyKindOf<AdtTy> { static constexpr TyKind value = TyKind::Adt; };
template <> struct TyKindOf<RefTy> { static constexpr TyKind value = TyKind::Ref; };
template <> struct TyKindOf<HoleTy> { static constexpr TyKind value = TyKind::Hole; };

// Checked downcast: nullptr when `t` is not of that form.
template <class T>
const T* ty_as(Ty t) {
  return t && t->kind == TyKindOf<T>::value ? static_cast<const T*>(t) : nullptr;
}

// Owns type nodes and the Dims inside them. Dims are not trivially destructible (they
// share their polynomial), so they live in chunks that are destroyed with the arena.
class TypeArena {
 public:
  TypeArena();
  TypeArena(const TypeArena&) = delete;
  TypeArena& operator=(const TypeArena&) = delete;
  ~TypeArena();

  Ty tensor(std::span<const Dim> shape, DataType dtype);
  Ty tensor(std::initializer_list<Dim> shape, DataType dtype) {
    return tensor(std::span<const Dim>(shape.begin(), shape.size()), dtype);
  }
  Ty scalar(DataType dtype) { return tensor(std::span<const Dim>(), dtype); }
  Ty tuple(std::span<const Ty> fields);
  Ty tuple(std::initializer_list<Ty> fields) {
    return tuple(std::span<const Ty>(fields.begin(), fields.size()));
  }
  Ty unit() { return unit_; }
  Ty func(std::span<const TyParamDecl* const> type_params, std::span<const Ty> params, Ty ret,
          const OpInfo* op = nullptr);
  Ty param(const TyParamDecl* decl);
  Ty adt(const AdtInfo* adt, std::span<const Ty> args);
  Ty ref(Ty value);
  Ty hole(uint32_t id);
  Ty error() { return error_; }

  const TyParamDecl* new_param_decl(std::string_view name);
  std::string_view copy_string(std::string_view s) { return nodes_.copy_string(s); }

  size_t bytes_used() const;

 private:
  std::span<const Dim> copy_dims(std::span<const Dim> dims);

  Arena nodes_;
  struct DimChunk {
    std::unique_ptr<Dim[]> dims;
    size_t used = 0;
    size_t capacity = 0;
  };
  std::vector<DimChunk> dim_chunks_;
  std::vector<std::string> strings_;
  Ty unit_;
  Ty error_;
};

// The shape of a tensor type as text, TVM style: `(1, 784)`, `(?, 3)`, `()`, `(2,)` is
// NOT used (TVM writes one-element shapes as `(2)`).
std::string shape_to_string(std::span<const Dim> shape);

// Writes a type the way TVM's text printer does (reference §1.4): `Tensor[(1, 10),
// float32]`, a rank-0 tensor as its dtype (`float32`), `(A, B)`, `fn (A) -> B`,
// `fn [A](A) -> A`, `List[A]`, `ref(T)`. An unknown (hole) prints as `_`, the
// annotation syntax for "infer this"; an error type as `<error>`.
std::string type_to_string(Ty t);

// Structural equality (dims compared by normal form; Any equals only Any).
bool type_equal(Ty a, Ty b);

// Rebuilds `t` bottom-up. `replace(x)` is asked about every node first: a non-null
// answer stands for `x` (and is not descended into). Tuples, functions, ADTs and refs it
// leaves alone are rebuilt from their mapped children — or returned as they are when no
// child changed. Substitution, instantiation and resolution are all this walk.
Ty map_type(Ty t, TypeArena& arena, const std::function<Ty(Ty)>& replace);

// True when no Hole occurs in `t`.
bool is_ground(Ty t);

}  // namespace relay

namespace relay {
// Dimension unknowns of the solver are symbols whose name starts with this character
// (which a user's dimension name cannot): `'7`.
constexpr char kDimHolePrefix = '\'';
bool dim_has_hole(const Dim& d);
// `'7` -> 7; nullopt for ordinary dimension names.
std::optional<uint32_t> dim_hole_index(const std::string& name);
std::string dim_hole_name(uint32_t index);
}  // namespace relay
