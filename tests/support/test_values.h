// Run-time values for tests that print or display them (value_print_test,
// value_html_test, inspect_test): scalars, and a closure object that needs no compiled code.
#pragma once

#include "interpreter/value.h"

namespace relay::test {

// A closure value as value_print sees it: only its kind matters there. It is not a
// ClosureObj, so never give it to code that looks inside closures (interpreter/inspect,
// repl/value_html); use a ClosureObj over an operator (find_op) there.
class FakeClosure final : public rt::Object {
 public:
  FakeClosure() : Object(rt::ObjectKind::Closure) {}
};

inline rt::Value i32(int64_t v) { return rt::NDArray::scalar_int(v, DataType::int_(32)); }
inline rt::Value f32(double v) { return rt::NDArray::scalar(v, DataType::float_(32)); }

}  // namespace relay::test
