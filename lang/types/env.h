// What the inference of one definition may know about the rest of the module: the
// declared signatures of global functions, ADTs and constructors.
//
// Per reference §2.4, a call to another global sees only that global's *annotations*
// (missing parts are fresh unknowns at each use), so a definition's inferred body depends
// on the other definitions' headers only. That is what makes per-definition caching in
// the checking database sound: a body edit changes no signature.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lang/syntax/ast.h"
#include "lang/types/adt.h"
#include "lang/types/type.h"

namespace relay {

// Marks "not annotated" inside a signature: every occurrence becomes a fresh unknown
// when the signature is used (HoleTy with this id).
constexpr uint32_t kUnannotatedHole = 0xFFFFFFFFu;

struct GlobalSignature {
  const FuncDef* def = nullptr;
  std::shared_ptr<TypeArena> arena;  // owns `type`
  const FuncTy* type = nullptr;       // type params, annotated params, annotated result
  // Dimension names bound by the parameter annotations (`n` in Tensor[(n, 784)]):
  // instantiated afresh at each call, like type parameters.
  std::vector<std::string> dim_names;
};

class CheckEnv {
 public:
  virtual ~CheckEnv() = default;
  virtual const GlobalSignature* global(std::string_view name) = 0;
  virtual const AdtInfo* adt(const TypeDef* def) = 0;
  virtual const CtorInfo* ctor(const CtorDef* def) = 0;
  // The module's `#[metadata]` section (types of `meta[relay.Constant][i]`), if any.
  virtual const Metadata* metadata() { return nullptr; }
};

// Builds a global's signature from its annotations.
std::shared_ptr<GlobalSignature> build_signature(const FuncDef& def, CheckEnv& env);

// Fills `info` (name, type parameters, constructors with their types) from `def`. ADTs
// named in constructor fields are looked up through `env`, which must already map `def`
// to `info` (fields are usually recursive: `Cons(a, List[a])`).
void build_adt(const TypeDef& def, AdtInfo& info, TypeArena& arena, CheckEnv& env);

// The ADTs of a set of type definitions, built together (they may refer to each other)
// and looked up by the syntax nodes that name them.
class AdtTable {
 public:
  // Registers every definition before building any: constructor fields refer to them
  // through `env`, which must answer adt()/ctor() from this table.
  void build(std::span<const TypeDef* const> defs, TypeArena& arena, CheckEnv& env);
  bool built() const { return built_; }
  const AdtInfo* adt(const TypeDef* def) const;
  const CtorInfo* ctor(const CtorDef* def) const;

 private:
  bool built_ = false;
  std::vector<std::unique_ptr<AdtInfo>> adts_;
  std::unordered_map<const TypeDef*, const AdtInfo*> by_def_;
  std::unordered_map<const CtorDef*, const CtorInfo*> ctor_by_def_;
};

// The environment of a whole module (and the modules it imports), built eagerly.
class ModuleEnv final : public CheckEnv {
 public:
  ModuleEnv(const Module& module, std::vector<const Module*> imports);
  const GlobalSignature* global(std::string_view name) override;
  const AdtInfo* adt(const TypeDef* def) override;
  const CtorInfo* ctor(const CtorDef* def) override;
  const Metadata* metadata() override { return metadata_; }

 private:
  const Metadata* metadata_ = nullptr;
  std::shared_ptr<TypeArena> arena_ = std::make_shared<TypeArena>();
  AdtTable adts_;
  std::unordered_map<std::string_view, const FuncDef*> funcs_;
  std::unordered_map<std::string_view, std::shared_ptr<GlobalSignature>> sigs_;
};

}  // namespace relay
