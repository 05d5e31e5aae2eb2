// Function values: a compiled function with its captured values, an operator used as a
// value, or a constructor used as a value (reference §4.2; TVM's EtaExpand turns the
// latter two into functions, here they are closures of their own kind).
#pragma once

#include <vector>

#include "interpreter/eval/code.h"
#include "interpreter/value.h"

namespace relay::rt {

class ClosureObj final : public Object {
 public:
  enum class Kind : uint8_t { Function, Op, Ctor };
  ClosureObj(const FunctionCode* code, std::vector<Value> captured)
      : Object(ObjectKind::Closure), kind(Kind::Function), code(code), captured(std::move(captured)) {}
  explicit ClosureObj(const OpInfo* op) : Object(ObjectKind::Closure), kind(Kind::Op), op(op) {}
  explicit ClosureObj(const CtorDef* ctor) : Object(ObjectKind::Closure), kind(Kind::Ctor), ctor(ctor) {}

  Kind kind;
  const FunctionCode* code = nullptr;
  std::vector<Value> captured;  // in FunctionCode capture-slot order
  const OpInfo* op = nullptr;
  const CtorDef* ctor = nullptr;
};

inline const ClosureObj& Value::closure() const { return *static_cast<const ClosureObj*>(obj_.get()); }

}  // namespace relay::rt
