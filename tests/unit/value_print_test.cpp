// format_value: tensors, tuples, references, constructor values and closures, the
// multi-line layout, reference cycles and very deep values.
#include <catch2/catch.hpp>

#include <string>

#include "interpreter/value_print.h"
#include "tests/support/test_values.h"
#include "lang/syntax/ast.h"

using relay::DataType;
using relay::rt::make_ref;
using relay::rt::make_tuple;
using relay::rt::NDArray;
using relay::rt::Value;
using relay::test::f32;
using relay::test::FakeClosure;
using relay::test::i32;

namespace {


Value matrix() {
  NDArray m = NDArray::empty({2, 2}, DataType::int_(32));
  for (int i = 0; i < 4; ++i) m.set_int(i, i + 1);
  return m;
}

struct Ctors {
  relay::CtorDef cons, nil, some;
  Ctors() {
    cons.name = "Cons";
    cons.tag = 1;
    nil.name = "Nil";
    some.name = "Some";
  }
  Value Nil() const { return Value(make_ref<relay::rt::CtorObj>(&nil, 0, std::vector<Value>{})); }
  Value Cons(Value head, Value tail) const {
    return Value(make_ref<relay::rt::CtorObj>(&cons, 1, std::vector<Value>{std::move(head), std::move(tail)}));
  }
};

}  // namespace

TEST_CASE("value print: one-line values", "[print]") {
  const Ctors c;
  using relay::rt::format_value;
  CHECK(format_value(i32(7)) == "7");
  CHECK(format_value(NDArray::scalar(2.5, DataType::float_(32))) == "2.5");
  CHECK(format_value(make_tuple({})) == "()");
  CHECK(format_value(make_tuple({i32(1)})) == "(1,)");
  CHECK(format_value(make_tuple({i32(1), make_tuple({i32(2), i32(3)})})) == "(1, (2, 3))");
  CHECK(format_value(c.Nil()) == "Nil");
  CHECK(format_value(c.Cons(i32(1), c.Cons(i32(2), c.Nil()))) == "Cons(1, Cons(2, Nil))");
  CHECK(format_value(Value(make_ref<relay::rt::RefObj>(i32(3)))) == "ref(3)");
  CHECK(format_value(Value(make_ref<FakeClosure>())) == "<closure>");
  CHECK(format_value(make_tuple({Value(make_ref<FakeClosure>()), c.Nil()})) == "(<closure>, Nil)");
  const NDArray row = NDArray::zeros({3}, DataType::float_(32));
  CHECK(format_value(make_tuple({row, i32(1)})) == "([0. 0. 0.], 1)");
}

TEST_CASE("value print: multi-line fields go on their own lines", "[print]") {
  const Ctors c;
  using relay::rt::format_value;
  CHECK(format_value(matrix()) == "[[1 2]\n [3 4]]");
  CHECK(format_value(make_tuple({matrix(), i32(5)})) ==
        "(\n"
        "  [[1 2]\n"
        "   [3 4]],\n"
        "  5\n"
        ")");
  CHECK(format_value(make_tuple({matrix()})) ==
        "(\n"
        "  [[1 2]\n"
        "   [3 4]],\n"
        ")");
  CHECK(format_value(c.Cons(matrix(), c.Nil())) ==
        "Cons(\n"
        "  [[1 2]\n"
        "   [3 4]],\n"
        "  Nil\n"
        ")");
  CHECK(format_value(Value(make_ref<relay::rt::RefObj>(matrix()))) == "ref([[1 2]\n     [3 4]])");
  CHECK(format_value(make_tuple({i32(0), make_tuple({matrix(), i32(1)})})) ==
        "(\n"
        "  0,\n"
        "  (\n"
        "    [[1 2]\n"
        "     [3 4]],\n"
        "    1\n"
        "  )\n"
        ")");
}

TEST_CASE("value print: a reference that contains itself", "[print]") {
  auto r = make_ref<relay::rt::RefObj>(make_tuple({}));
  r->value = make_tuple({Value(r), i32(1)});
  CHECK(relay::rt::format_value(Value(r)) == "ref((ref(...), 1))");
  r->value = make_tuple({});  // break the cycle so the objects are freed
}

TEST_CASE("value print: very long lists print without recursion", "[print]") {
  const Ctors c;
  constexpr int kLength = 200000;
  Value list = c.Nil();
  for (int i = kLength - 1; i >= 0; --i) list = c.Cons(i32(i % 10), list);
  const std::string s = relay::rt::format_value(list);
  CHECK(s.starts_with("Cons(0, Cons(1, Cons(2, "));
  CHECK(s.ends_with("Cons(9, Nil)" + std::string(kLength - 1, ')')));
  // Take the list apart from the head: destroying it whole would recurse once per cell.
  while (list.is_ctor() && !list.ctor().fields.empty()) {
    Value next = std::move(const_cast<relay::rt::CtorObj&>(list.ctor()).fields[1]);
    list = next;
  }
}
