// interpreter/inspect: the value-inspection model. Summaries, type text and children of
// every value kind; small and large tensors (statistics, NaN/Inf counts); paging at the
// far end of a huge tensor and a huge tuple; full-precision text and raw bytes.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/eval/closure.h"
#include "interpreter/inspect/inspect.h"
#include "interpreter/value_print.h"
#include "lang/ops/op_registry.h"
#include "lang/syntax/frontend.h"
#include "tests/support/module_lookup.h"
#include "tests/support/test_values.h"

using relay::DataType;
using relay::rt::Child;
using relay::rt::ChildFilter;
using relay::rt::children;
using relay::rt::inspect;
using relay::rt::make_ref;
using relay::rt::make_tuple;
using relay::rt::NDArray;
using relay::rt::Value;
using relay::test::f32;
using relay::test::i32;

namespace {

// 0, 1, 2, ... in row-major order.
NDArray iota(const relay::rt::Shape& shape, DataType dtype = DataType::float_(32)) {
  NDArray a = NDArray::empty(shape, dtype);
  for (int64_t i = 0; i < a.size(); ++i) a.set_double(i, static_cast<double>(i));
  return a;
}

std::vector<std::string> names(const std::vector<Child>& kids) {
  std::vector<std::string> out;
  for (const Child& c : kids) out.push_back(c.name);
  return out;
}

// A parsed module (with the prelude) whose declarations the values below point into.
struct Parsed {
  relay::SourceManager sources;
  relay::FrontendResult front;
  explicit Parsed(const std::string& text) {
    const relay::FileId id = sources.add("inspect.relay", "#[version = \"0.0.5\"]\n" + text);
    relay::DiagnosticBag diags;
    front = relay::analyze_file(sources, id, diags);
    REQUIRE(relay::testing::diagnostic_codes(diags) == "");
  }
  const relay::TypeDef* type(std::string_view name) const {
    if (auto* t = relay::testing::find_type_def(*front.module, name)) return t;
    if (front.prelude)
      if (auto* t = relay::testing::find_type_def(*front.prelude, name)) return t;
    FAIL("no type " << std::string(name));
    return nullptr;
  }
  const relay::CtorDef* ctor(std::string_view type_name, std::string_view name) const {
    for (const relay::CtorDef* c : type(type_name)->ctors)
      if (c->name == name) return c;
    FAIL("no constructor " << std::string(name));
    return nullptr;
  }
  Value make(std::string_view type_name, std::string_view name, std::vector<Value> fields) const {
    const relay::CtorDef* c = ctor(type_name, name);
    return Value(make_ref<relay::rt::CtorObj>(c, c->tag, std::move(fields)));
  }
  Value list(const std::vector<Value>& items) const {
    Value out = make("List", "Nil", {});
    for (size_t i = items.size(); i-- > 0;) out = make("List", "Cons", {items[i], out});
    return out;
  }
};

const char* const kProgram = R"(#[import = "prelude"]
type Either[L, R] {
  Left(L),
  Right(R),
}
type Bin[A] {
  Node(Bin[A], Bin[A]),
  Leaf(A),
}
def @f(%x: Tensor[(2), float32], %y) -> float32 {
  %x
}
)";

}  // namespace

TEST_CASE("inspect: scalars and small tensors show their numbers", "[inspect]") {
  const auto scalar = inspect(f32(1.5));
  CHECK(scalar.summary == "1.5");
  CHECK(scalar.type == "float32");
  CHECK(scalar.named == 0);
  CHECK(scalar.indexed == 0);
  CHECK(children(f32(1.5)).empty());

  const auto m = inspect(iota({2, 3}, DataType::int_(32)));
  CHECK(m.summary == "[[0 1 2] [3 4 5]]");  // numpy's str() on one line
  CHECK(m.type == "Tensor[(2, 3), int32]");
  CHECK(m.named == 7);
  CHECK(m.indexed == 2);

  CHECK(inspect(iota({3})).summary == "[0. 1. 2.]");
  CHECK(inspect(iota({1}, DataType::int_(32))).type == "Tensor[(1), int32]");
  CHECK(inspect(NDArray::scalar_int(1, DataType::bool_())).summary == "True");
  // Blocks of a 3-d tensor are separated by one space, like rows.
  CHECK(inspect(iota({2, 2, 2}, DataType::int_(32))).summary == "[[[0 1] [2 3]] [[4 5] [6 7]]]");
  // numpy's alignment inside a row stays.
  NDArray v = iota({2}, DataType::int_(32));
  v.set_int(1, 10);
  CHECK(inspect(v).summary == "[ 0 10]");

  const auto empty = inspect(NDArray::empty({0, 3}, DataType::float_(32)));
  CHECK(empty.summary == "[]");
  CHECK(empty.named == 2);  // shape and dtype: no statistics without elements
  CHECK(empty.indexed == 0);
}

TEST_CASE("inspect: large tensors summarise as statistics", "[inspect]") {
  const NDArray a = iota({10, 10});
  CHECK(inspect(a).summary == "min=0.0 max=99.0 mean=49.5");
  // 64 elements is still small; 65 is not.
  CHECK(inspect(iota({64}, DataType::int_(32))).summary.rfind("[ 0  1  2", 0) == 0);
  CHECK(inspect(iota({65}, DataType::int_(32))).summary == "min=0 max=64 mean=32.0");
  // The threshold is an option.
  relay::rt::InspectOptions wide;
  wide.inline_elements = 100;
  CHECK(inspect(a, {}, wide).summary.rfind("[[ 0.  1.", 0) == 0);
  relay::rt::InspectOptions narrow;
  narrow.inline_elements = 2;
  CHECK(inspect(iota({3}), {}, narrow).summary == "min=0.0 max=2.0 mean=1.0");

  // NaN and Inf are counted, and left out of min, max and mean.
  NDArray bad = iota({100});
  bad.set_double(3, std::numeric_limits<double>::quiet_NaN());
  bad.set_double(96, std::numeric_limits<double>::quiet_NaN());
  bad.set_double(99, std::numeric_limits<double>::infinity());
  bad.set_double(0, -std::numeric_limits<double>::infinity());
  CHECK(inspect(bad).summary == "min=1.0 max=98.0 mean=49.5 nan=2 inf=2");
  NDArray nans = NDArray::empty({100}, DataType::float_(64));
  for (int64_t i = 0; i < 100; ++i) nans.set_double(i, std::numeric_limits<double>::quiet_NaN());
  CHECK(inspect(nans).summary == "nan=100");

  // The statistics as named leaves, computed from the elements.
  const std::vector<Child> stats = children(bad, ChildFilter::Named);
  REQUIRE(names(stats) == std::vector<std::string>{"shape", "dtype", "min", "max", "mean", "nan", "inf"});
  CHECK(stats[0].text == "(100)");
  CHECK(stats[1].text == "float32");
  CHECK(stats[2].text == "1.0");
  CHECK(stats[3].text == "98.0");
  CHECK(stats[4].text == "49.5");
  CHECK(stats[5].text == "2");
  CHECK(stats[6].text == "2");
  for (const Child& c : stats) CHECK(c.is_leaf());
  CHECK(inspect(stats[2]).summary == "1.0");
  CHECK(inspect(stats[2]).indexed == 0);
  CHECK(children(nans, ChildFilter::Named, 2, 1)[0].text == "(no finite elements)");
  // Integer statistics read as integers; the mean as a float.
  const std::vector<Child> ints = children(iota({2, 3}, DataType::int_(32)), ChildFilter::Named, 2, 3);
  REQUIRE(names(ints) == std::vector<std::string>{"min", "max", "mean"});
  CHECK(ints[0].text == "0");
  CHECK(ints[1].text == "5");
  CHECK(ints[2].text == "2.5");
}

TEST_CASE("inspect: tensor rows are tensors, down to scalars", "[inspect]") {
  const NDArray m = iota({2, 3}, DataType::int_(32));
  const std::vector<Child> rows = children(m, ChildFilter::Indexed);
  REQUIRE(names(rows) == std::vector<std::string>{"0", "1"});
  const auto row = inspect(rows[1]);
  CHECK(row.summary == "[3 4 5]");
  CHECK(row.type == "Tensor[(3), int32]");
  CHECK(row.indexed == 3);

  const std::vector<Child> elements = children(rows[1].value, ChildFilter::Indexed, 1, 5);
  REQUIRE(names(elements) == std::vector<std::string>{"1", "2"});
  CHECK(inspect(elements[0]).summary == "4");
  CHECK(inspect(elements[0]).type == "int32");
  CHECK(children(elements[0].value).empty());  // a scalar has no children

  // All: the named (statistics) first, then the rows, as one sequence.
  CHECK(names(children(m, ChildFilter::All, 5, 4)) == std::vector<std::string>{"nan", "inf", "0", "1"});
  CHECK(names(children(m, ChildFilter::All, 8, 10)) == std::vector<std::string>{"1"});
  CHECK(children(m, ChildFilter::All, 9, 10).empty());
  CHECK(children(m, ChildFilter::Indexed, -3, 1)[0].name == "0");  // a negative start is 0
  CHECK(children(m, ChildFilter::Indexed, 0, 0).empty());
  // A row is a copy: the parent is unchanged when it is written.
  rows[0].value.tensor().set_int(0, 42);
  CHECK(m.get_int(0) == 0);
}

TEST_CASE("inspect: paging far into a huge tensor or tuple costs the page", "[inspect]") {
  const NDArray big = iota({1000000, 4});
  const auto info = inspect(big);
  CHECK(info.indexed == 1000000);
  CHECK(info.summary == "min=0.0 max=3999999.0 mean=1999999.5");

  const std::vector<Child> page = children(big, ChildFilter::Indexed, 500000, 10);
  REQUIRE(page.size() == 10);
  CHECK(page[0].name == "500000");
  CHECK(page[9].name == "500009");
  CHECK(inspect(page[9]).summary == "[2000036. 2000037. 2000038. 2000039.]");
  // The last row, through the combined sequence (7 statistics first).
  const std::vector<Child> last = children(big, ChildFilter::All, 7 + 999999, 100);
  REQUIRE(last.size() == 1);
  CHECK(inspect(last[0]).summary == "[3999996. 3999997. 3999998. 3999999.]");

  // A thousand pages cost about nothing; reading the tensor (4 million elements) for
  // each, or copying it, would take seconds.
  const auto begin = std::chrono::steady_clock::now();
  size_t rows = 0;
  for (int i = 0; i < 1000; ++i) rows += children(big, ChildFilter::All, 7 + 999 * i, 10).size();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  CHECK(rows == 10000);
  CHECK(seconds < 2.0);

  std::vector<Value> fields(1000000, i32(1));
  fields.back() = f32(0.5);
  const Value wide = make_tuple(std::move(fields));
  const auto t = inspect(wide);
  CHECK(t.indexed == 1000000);
  CHECK(t.named == 0);
  CHECK(t.summary.size() < 200);  // bounded: `(1, 1, …)`
  CHECK(t.summary.rfind("(1, 1, 1", 0) == 0);
  CHECK(t.summary.substr(t.summary.size() - 4) == "\u2026)");
  CHECK(t.type.size() < 3000);
  CHECK(t.type.rfind("(int32, int32, ", 0) == 0);
  const std::vector<Child> end = children(wide, ChildFilter::Indexed, 999995, 10);
  REQUIRE(names(end) == std::vector<std::string>{"999995", "999996", "999997", "999998", "999999"});
  CHECK(inspect(end[4]).summary == "0.5");
  const auto tuple_begin = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000; ++i) CHECK(children(wide, ChildFilter::All, 1000 * i, 3).size() == 3);
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - tuple_begin).count() < 2.0);
}

TEST_CASE("inspect: tuples", "[inspect]") {
  const Value pair = make_tuple({i32(1), f32(2.5)});
  const auto info = inspect(pair);
  CHECK(info.summary == "(1, 2.5)");
  CHECK(info.type == "(int32, float32)");
  CHECK(info.indexed == 2);
  CHECK(info.named == 0);
  CHECK(names(children(pair)) == std::vector<std::string>{"0", "1"});
  CHECK(inspect(children(pair)[1]).summary == "2.5");

  CHECK(inspect(make_tuple({i32(1)})).summary == "(1,)");
  CHECK(inspect(make_tuple({i32(1)})).type == "(int32,)");  // TVM's one-field tuple type
  CHECK(inspect(relay::rt::unit()).summary == "()");
  CHECK(inspect(relay::rt::unit()).type == "()");

  // Tensors inside: small ones show their numbers, large ones their type (no statistics
  // for a parent's one line).
  const Value tensors = make_tuple({iota({1}, DataType::int_(32)), iota({2}), iota({100, 100})});
  CHECK(inspect(tensors).type == "(Tensor[(1), int32], Tensor[(2), float32], Tensor[(100, 100), float32])");
  CHECK(inspect(tensors).summary == "([0], [0. 1.], Tensor[(100, 100), float32])");

  // The caller's static type wins.
  CHECK(inspect(tensors, "(Tensor[(?), int32], _, _)").type == "(Tensor[(?), int32], _, _)");

  // Deep nesting stays one bounded line.
  Value deep = i32(0);
  for (int i = 0; i < 100000; ++i) deep = make_tuple({deep});
  const auto d = inspect(deep);
  CHECK(d.summary.size() < 400);
  CHECK(d.summary.find("\u2026") != std::string::npos);
  CHECK(d.type.size() < 400);
}

TEST_CASE("inspect: constructor values and their ADT types", "[inspect]") {
  const Parsed p(kProgram);
  const Value two = p.list({i32(1), i32(2)});
  const auto info = inspect(two);
  CHECK(info.summary == "Cons(1, Cons(2, Nil))");
  CHECK(info.type == "List[int32]");
  CHECK(info.indexed == 2);
  CHECK(info.named == 0);
  const std::vector<Child> fields = children(two);
  REQUIRE(names(fields) == std::vector<std::string>{"0", "1"});
  CHECK(inspect(fields[0]).summary == "1");
  CHECK(inspect(fields[1]).summary == "Cons(2, Nil)");
  CHECK(inspect(fields[1]).type == "List[int32]");

  // What the fields do not say stays unknown.
  const Value nil = p.make("List", "Nil", {});
  CHECK(inspect(nil).summary == "Nil");
  CHECK(inspect(nil).type == "List[_]");
  CHECK(inspect(nil).indexed == 0);
  CHECK(inspect(p.make("Option", "Some", {iota({2})})).type == "Option[Tensor[(2), float32]]");
  CHECK(inspect(p.list({nil})).type == "List[List[_]]");
  // Through a field of the ADT's own type (List[Tree[A]] in Rose) and nested lists.
  const Value leaf = p.make("Tree", "Rose", {f32(1), nil});
  CHECK(inspect(leaf).type == "Tree[float32]");
  CHECK(inspect(p.list({p.list({}), p.list({i32(3)})})).type == "List[List[int32]]");
  // Two parameters, one known.
  CHECK(inspect(p.make("Either", "Left", {i32(1)})).type == "Either[int32, _]");
  CHECK(inspect(p.make("Either", "Right", {make_tuple({})})).type == "Either[_, ()]");

  // A tree whose leaves say nothing is not searched whole: 2^40 paths through 40 shared
  // nodes are read once each, and a leaf that does say is still found.
  Value tree = p.make("Bin", "Leaf", {Value(make_ref<relay::rt::ClosureObj>(relay::find_op("nn.relu")))});
  for (int i = 0; i < 40; ++i) tree = p.make("Bin", "Node", {tree, tree});
  CHECK(inspect(tree).type == "Bin[_]");
  CHECK(inspect(p.make("Bin", "Node", {tree, p.make("Bin", "Leaf", {i32(1)})})).type == "Bin[int32]");

  // A long list: bounded summary, the type from its head.
  std::vector<Value> items;
  for (int i = 0; i < 100000; ++i) items.push_back(i32(i));
  const auto long_list = inspect(p.list(items));
  CHECK(long_list.type == "List[int32]");
  CHECK(long_list.summary.rfind("Cons(0, Cons(1, Cons(2, ", 0) == 0);
  CHECK(long_list.summary.size() < 400);
  CHECK(long_list.summary.find("\u2026") != std::string::npos);

  // A constructor without its declaration: the name, no type.
  relay::CtorDef loose;
  loose.name = "Pair";
  const Value v(make_ref<relay::rt::CtorObj>(&loose, 0, std::vector<Value>{i32(1), f32(2)}));
  CHECK(inspect(v).summary == "Pair(1, 2.0)");
  CHECK(inspect(v).type.empty());
  CHECK(relay::rt::constructor_name(v.ctor()) == "Pair");
}

TEST_CASE("inspect: closures", "[inspect]") {
  const Parsed p(kProgram);
  const relay::FuncDef* f = relay::testing::find_def(*p.front.module, "f");
  REQUIRE(f);
  // A compiled function capturing two values in slots 2 and 3.
  relay::VarDecl n{}, m{};
  n.name = "n";
  m.name = "m";
  relay::rt::FunctionCode code;
  code.fn = f->fn;
  code.name = "%g";
  code.params = 2;
  code.capture_slots = {2, 3};
  code.slots = 4;
  code.slot_vars = {f->fn->params[0], f->fn->params[1], &n, &m};
  const Value closure(make_ref<relay::rt::ClosureObj>(&code, std::vector<Value>{i32(7), iota({3})}));
  const auto info = inspect(closure);
  CHECK(info.summary == "%g(%x, %y)");
  CHECK(info.type == "fn (Tensor[(2), float32], _) -> float32");  // annotations; `_` where absent
  CHECK(info.named == 2);
  CHECK(info.indexed == 0);
  const std::vector<Child> captured = children(closure);
  REQUIRE(names(captured) == std::vector<std::string>{"%n", "%m"});
  CHECK(inspect(captured[0]).summary == "7");
  CHECK(inspect(captured[1]).summary == "[0. 1. 2.]");
  CHECK(children(closure, ChildFilter::Indexed).empty());

  // Without binder names, captures are numbered.
  relay::rt::FunctionCode anonymous = code;
  anonymous.name = "fn";
  anonymous.slot_vars.clear();
  const Value lambda(make_ref<relay::rt::ClosureObj>(&anonymous, std::vector<Value>{i32(1), i32(2)}));
  CHECK(inspect(lambda).summary == "fn(%x, %y)");
  CHECK(names(children(lambda, ChildFilter::Named, 1, 1)) == std::vector<std::string>{"captured 1"});

  // Operators and constructors used as values just summarise.
  const Value relu(make_ref<relay::rt::ClosureObj>(relay::find_op("nn.relu")));
  CHECK(inspect(relu).summary == "nn.relu");
  CHECK(inspect(relu).type.empty());  // depends on the arguments
  CHECK(inspect(relu).named + inspect(relu).indexed == 0);
  const Value cons(make_ref<relay::rt::ClosureObj>(p.ctor("List", "Cons")));
  CHECK(inspect(cons).summary == "Cons");
  CHECK(inspect(cons).type == "fn [A](A, List[A]) -> List[A]");
  CHECK(children(cons).empty());

  // Inside other values.
  CHECK(inspect(make_tuple({relu, i32(1)})).summary == "(nn.relu, 1)");
  CHECK(inspect(make_tuple({relu, i32(1)})).type == "(_, int32)");
}

TEST_CASE("inspect: references", "[inspect]") {
  const Value r(make_ref<relay::rt::RefObj>(i32(5)));
  const auto info = inspect(r);
  CHECK(info.summary == "ref(5)");
  CHECK(info.type == "ref(int32)");
  CHECK(info.named == 1);
  CHECK(info.indexed == 0);
  const std::vector<Child> kids = children(r);
  REQUIRE(names(kids) == std::vector<std::string>{"value"});
  CHECK(inspect(kids[0]).summary == "5");

  // A reference that holds itself: bounded, and its child is itself.
  auto cell = make_ref<relay::rt::RefObj>(relay::rt::unit());
  cell->value = make_tuple({Value(cell), i32(1)});
  const Value cyclic(cell);
  const auto c = inspect(cyclic);
  CHECK(c.summary.rfind("ref((ref((", 0) == 0);
  CHECK(c.summary.size() < 400);
  CHECK(c.type.size() < 3000);
  CHECK(children(children(cyclic)[0].value)[0].value.get() == cyclic.get());
  cell->value = relay::rt::unit();  // break the cycle so the objects are freed
}

TEST_CASE("inspect: full text reads back exactly", "[inspect]") {
  NDArray d = NDArray::empty({2}, DataType::float_(64));
  d.set_double(0, 1.0 / 3.0);
  d.set_double(1, 0.1);
  const std::string text = relay::rt::full_text(d);
  CHECK(text == "[0.3333333333333333 0.1               ]");
  CHECK(relay::rt::format_value(d) == "[0.33333333 0.1       ]");  // numpy's default: 8 digits
  CHECK(std::strtod(text.c_str() + 1, nullptr) == 1.0 / 3.0);

  NDArray s = NDArray::empty({1}, DataType::float_(32));
  s.set_double(0, 1.0 / 3.0);
  CHECK(relay::rt::full_text(s) == "[0.33333334]");  // float32's own shortest digits

  // No summarisation, however large.
  const std::string all = relay::rt::full_text(iota({2000}, DataType::int_(32)));
  CHECK(all.find("...") == std::string::npos);
  CHECK(all.find(" 1000 ") != std::string::npos);
  CHECK(relay::rt::format_value(iota({2000}, DataType::int_(32))).find("...") != std::string::npos);

  // Composite values print as value_print prints them.
  CHECK(relay::rt::full_text(make_tuple({i32(1), f32(0.1)})) == "(1, 0.1)");
}

TEST_CASE("inspect: raw bytes of a tensor", "[inspect]") {
  const NDArray a = iota({3, 5});
  const auto bytes = relay::rt::raw_bytes(a);
  REQUIRE(bytes);
  CHECK(bytes->data() == static_cast<const std::byte*>(a.raw()));
  CHECK(bytes->size() == 60);
  float third;
  std::memcpy(&third, bytes->data() + 2 * sizeof(float), sizeof(float));
  CHECK(third == 2.0f);
  CHECK(relay::rt::raw_bytes(f32(1))->size() == 4);
  CHECK_FALSE(relay::rt::raw_bytes(make_tuple({a})));
  CHECK_FALSE(relay::rt::raw_bytes(Value()));
}

TEST_CASE("inspect: an undefined value", "[inspect]") {
  const auto info = inspect(Value());
  CHECK(info.summary == "<undefined>");
  CHECK(info.type.empty());
  CHECK(info.named + info.indexed == 0);
  CHECK(children(Value()).empty());
}
