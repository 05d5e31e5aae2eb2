// ADTs as the type checker sees them (reference §2.1): a header with type parameters and
// constructors whose field types are written over those parameters.
//
// An AdtInfo is built from a TypeDef once and then shared (by pointer) by every type that
// mentions the ADT, so it must outlive them: the checking environment (env.h) owns it.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "lang/types/type.h"

namespace relay {

struct AdtInfo;

struct CtorInfo {
  std::string_view name;
  uint32_t tag = 0;               // position in its type definition
  std::vector<Ty> fields;         // over the ADT's type parameters
  const AdtInfo* adt = nullptr;
  const CtorDef* def = nullptr;   // the syntax it came from (for spans); may be null
  // `fn [a1..ak](fields...) -> Adt[a1..ak]`, built once.
  Ty type = nullptr;
};

struct AdtInfo {
  std::string_view name;
  std::vector<const TyParamDecl*> params;
  std::vector<std::unique_ptr<CtorInfo>> ctors;  // tag order
  bool is_extern = false;                         // `extern type Storage`: no constructors
  const TypeDef* def = nullptr;
};

}  // namespace relay
