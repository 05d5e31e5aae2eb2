// Run-time values (reference §4.2): tensors, tuples, closures, constructor values and
// references. A Value is a handle to a reference-counted object (runtime/object.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/runtime/ndarray.h"
#include "interpreter/runtime/object.h"

namespace relay {
struct CtorDef;
struct OpInfo;
}  // namespace relay

namespace relay::rt {

class TupleObj;
class ClosureObj;
class CtorObj;
class RefObj;

class Value {
 public:
  Value() = default;
  Value(NDArray t) : obj_(t.object()) {}
  explicit Value(Ref<Object> o) : obj_(std::move(o)) {}
  template <class T> Value(Ref<T> o) : obj_(std::move(o)) {}

  bool defined() const { return static_cast<bool>(obj_); }
  ObjectKind kind() const { return obj_->kind(); }
  bool is_tensor() const { return obj_ && obj_->kind() == ObjectKind::Tensor; }
  bool is_tuple() const { return obj_ && obj_->kind() == ObjectKind::Tuple; }
  bool is_closure() const { return obj_ && obj_->kind() == ObjectKind::Closure; }
  bool is_ctor() const { return obj_ && obj_->kind() == ObjectKind::Ctor; }
  bool is_ref() const { return obj_ && obj_->kind() == ObjectKind::Ref; }

  // Unchecked views (check the kind first).
  NDArray tensor() const { return NDArray(Ref<TensorObj>(static_cast<TensorObj*>(obj_.get()))); }
  const TupleObj& tuple() const;
  const ClosureObj& closure() const;  // defined in eval/closure.h
  const CtorObj& ctor() const;
  RefObj& ref() const;
  Object* get() const { return obj_.get(); }

 private:
  Ref<Object> obj_;
};

class TupleObj final : public Object {
 public:
  explicit TupleObj(std::vector<Value> f) : Object(ObjectKind::Tuple), fields(std::move(f)) {}
  std::vector<Value> fields;
};

// A constructor applied to its fields. `tag` is the constructor's index in its ADT.
class CtorObj final : public Object {
 public:
  CtorObj(const CtorDef* c, uint32_t t, std::vector<Value> f)
      : Object(ObjectKind::Ctor), ctor(c), tag(t), fields(std::move(f)) {}
  const CtorDef* ctor;
  uint32_t tag;
  std::vector<Value> fields;
};

class RefObj final : public Object {
 public:
  explicit RefObj(Value v) : Object(ObjectKind::Ref), value(std::move(v)) {}
  Value value;
};

inline const TupleObj& Value::tuple() const { return *static_cast<const TupleObj*>(obj_.get()); }
inline const CtorObj& Value::ctor() const { return *static_cast<const CtorObj*>(obj_.get()); }
inline RefObj& Value::ref() const { return *static_cast<RefObj*>(obj_.get()); }

// Closures are defined by the evaluator (eval/closure.h): a compiled function plus
// captured values, an operator used as a value, or a constructor used as a value.

Value make_tuple(std::vector<Value> fields);
inline Value unit() { return make_tuple({}); }

}  // namespace relay::rt
