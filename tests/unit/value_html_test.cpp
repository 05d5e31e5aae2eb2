// repl/value_html: run-time values as HTML for notebooks. Tensor headers and cells,
// numpy-style summarisation with bounded output, escaping, nested tuples and constructor
// values, references, closures, long lists and very deep values.
#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

#include "interpreter/eval/closure.h"
#include "interpreter/value.h"
#include "lang/ops/op_registry.h"
#include "lang/syntax/frontend.h"
#include "repl/value_html.h"
#include "tests/support/test_values.h"
#include "tests/support/module_lookup.h"

using relay::DataType;
using relay::repl::value_html;
using relay::rt::make_ref;
using relay::rt::make_tuple;
using relay::rt::NDArray;
using relay::rt::Value;
using relay::test::f32;
using relay::test::i32;

namespace {

// An operator used as a value: a closure that needs no compiled code.
Value relu() { return Value(make_ref<relay::rt::ClosureObj>(relay::find_op("nn.relu"))); }

// A float32 tensor holding 0, 1, 2, ... in row-major order.
NDArray iota(const relay::rt::Shape& shape) {
  NDArray a = NDArray::empty(shape, DataType::float_(32));
  for (int64_t i = 0; i < a.size(); ++i) a.set_double(i, static_cast<double>(i));
  return a;
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

// The prelude's List and Option constructors: with their declarations, as the
// interpreter builds them.
struct Prelude {
  relay::SourceManager sources;
  std::shared_ptr<const relay::Module> module = relay::load_prelude(sources);
  const relay::CtorDef* ctor(std::string_view type, std::string_view name) const {
    const relay::TypeDef* t = relay::testing::find_type_def(*module, type);
    if (!t) FAIL("no type " << std::string(type));
    for (const relay::CtorDef* c : t->ctors)
      if (c->name == name) return c;
    FAIL("no constructor " << std::string(name));
    return nullptr;
  }
  Value make(std::string_view type, std::string_view name, std::vector<Value> fields) const {
    const relay::CtorDef* c = ctor(type, name);
    return Value(make_ref<relay::rt::CtorObj>(c, c->tag, std::move(fields)));
  }
};

}  // namespace

TEST_CASE("value html: a matrix has a header and a cell per element", "[repl][html]") {
  NDArray m = iota({3, 4});
  m.set_double(5, 0.25);
  const std::string html = value_html(m, "");
  INFO(html);
  // No stylesheet (it would repeat in every output, and untrusted notebooks drop it);
  // the table scrolls in a box of its own.
  CHECK(html.rfind("<div class=\"relay-value\">", 0) == 0);
  CHECK(html.find("<style") == std::string::npos);
  CHECK(html.find("<div class=\"rv-scroll\" style=\"overflow-x:auto;max-width:100%\"><table") != std::string::npos);
  CHECK(count(html, "Tensor[(3, 4), float32]") == 1);
  CHECK(count(html, "<td>") == 12);
  CHECK(count(html, "<tr>") == 4);  // column indices, then 3 rows
  CHECK(count(html, "<thead>") == 1);
  // Elements as the text form prints them inside the array: `[[ 0.    1.    2. ...`.
  CHECK(html.find("<td>0.</td><td>1.</td><td>2.</td><td>3.</td>") != std::string::npos);
  CHECK(html.find("<td>0.25</td>") != std::string::npos);
  CHECK(html.find("<td>11.</td>") != std::string::npos);
  CHECK(html.find("\u2026") == std::string::npos);  // small: nothing summarised

  // The type given by the caller heads the output; the same text is not repeated.
  const std::string typed = value_html(m, "Tensor[(3, 4), float32]");
  CHECK(count(typed, "Tensor[(3, 4), float32]") == 1);
  CHECK(typed.find("<div class=\"rv-type\"><b>Tensor[(3, 4), float32]</b></div>") != std::string::npos);
  // A symbolic type leaves the tensor's own shape visible too.
  const std::string symbolic = value_html(m, "Tensor[(?, 4), float32]");
  CHECK(symbolic.find("Tensor[(?, 4), float32]") != std::string::npos);
  CHECK(symbolic.find("Tensor[(3, 4), float32]") != std::string::npos);
}

TEST_CASE("value html: scalars, vectors, higher ranks and empty tensors", "[repl][html]") {
  // A scalar is a value with its type, not a one-cell table.
  const std::string scalar = value_html(i32(7), "int32");
  INFO(scalar);
  CHECK(scalar.find("<code class=\"rv-scalar\">7</code> <span class=\"rv-type\" style=\"opacity:.7\">: int32</span>") !=
        std::string::npos);
  CHECK(scalar.find("<table") == std::string::npos);
  CHECK(count(scalar, "int32") == 1);
  CHECK(value_html(NDArray::scalar_int(1, DataType::bool_()), "").find(">True</code> ") != std::string::npos);
  // Scalars read as numpy prints a scalar of the dtype; the type is the tensor's own
  // when the caller gives none.
  const std::string small = value_html(f32(1e-5), "");
  CHECK(small.find(">1e-05</code>") != std::string::npos);
  CHECK(small.find(": float32</span>") != std::string::npos);
  // A wide float32 row: 8 digits after the point at most, as in text (numpy's precision),
  // where a scalar of the same value prints up to 9 significant digits.
  NDArray wide = NDArray::empty({1, 16}, DataType::float_(32));
  for (int i = 0; i < 16; ++i) wide.set_double(i, -0.078872815 * (i + 1));
  const std::string wide_html = value_html(wide, "");
  INFO(wide_html);
  CHECK(wide_html.find("<td>-0.07887281</td>") != std::string::npos);  // numpy: [[-0.07887281 ...
  CHECK(wide_html.find("-0.078872815") == std::string::npos);         // the scalar's own digits
  CHECK(wide_html.find("overflow-x:auto") != std::string::npos);

  NDArray v = NDArray::empty({3}, DataType::int_(64));
  for (int i = 0; i < 3; ++i) v.set_int(i, -i * 1000);
  const std::string row = value_html(v, "");
  CHECK(row.find("Tensor[(3), int64]") != std::string::npos);
  CHECK(count(row, "<tr>") == 2);  // indices, then the one row
  CHECK(row.find("<td>0</td><td>-1000</td><td>-2000</td>") != std::string::npos);

  const std::string cube = value_html(iota({2, 3, 4}), "");
  CHECK(cube.find(">[0, :, :]</caption>") != std::string::npos);
  CHECK(cube.find(">[1, :, :]</caption>") != std::string::npos);
  CHECK(count(cube, "<table") == 2);
  CHECK(count(cube, "<td>") == 24);
  CHECK(cube.find("<td>23.</td>") != std::string::npos);

  const std::string empty = value_html(NDArray::empty({0, 3}, DataType::float_(32)), "");
  CHECK(empty.find("Tensor[(0, 3), float32]") != std::string::npos);
  CHECK(empty.find("<td") == std::string::npos);
}

TEST_CASE("value html: large tensors are summarised like numpy", "[repl][html]") {
  const std::string html = value_html(iota({100, 100}), "");
  INFO(html.substr(0, 4000));
  CHECK(html.find("Tensor[(100, 100), float32]") != std::string::npos);
  // The first and last 3 rows and columns around gaps: 7 x 7 cells.
  CHECK(count(html, "<td") == 49);
  CHECK(html.find("<td class=\"rv-gap\">\u2026</td>") != std::string::npos);
  CHECK(html.find("<td class=\"rv-gap\">\u22ee</td>") != std::string::npos);
  // As numpy prints the array: the largest shown element over 1,000 times the smallest
  // non-zero one makes it scientific, `[[0.000e+00 1.000e+00 ...`.
  CHECK(html.find("<td>0.000e+00</td><td>1.000e+00</td><td>2.000e+00</td><td class=\"rv-gap\">\u2026</td>"
                  "<td>9.700e+01</td><td>9.800e+01</td><td>9.900e+01</td>") != std::string::npos);
  CHECK(html.find("<th>99</th>") != std::string::npos);  // row and column indices stay true
  CHECK(html.find("<td>9.999e+03</td>") != std::string::npos);
  CHECK(html.find("<td>5.050e+03</td>") == std::string::npos);
  CHECK(html.size() < 8000);
  // What the edges leave out, as statistics; small tables have none.
  CHECK(html.find("<div class=\"rv-head rv-stats\" style=\"opacity:.7\">min=0.0 max=9999.0 mean=4999.5</div>") !=
        std::string::npos);
  CHECK(value_html(iota({10, 10}), "").find("rv-stats") == std::string::npos);
  NDArray bad = iota({2000});
  bad.set_double(7, std::numeric_limits<double>::quiet_NaN());
  const std::string with_nan = value_html(bad, "");
  CHECK(with_nan.find(">min=0.0 max=1999.0 mean=") != std::string::npos);
  CHECK(with_nan.find(" nan=1</div>") != std::string::npos);
  // Non-finite elements are marked in the table; finite ones and integers are not.
  NDArray odd = iota({4});
  odd.set_double(1, std::numeric_limits<double>::quiet_NaN());
  odd.set_double(2, -std::numeric_limits<double>::infinity());
  const std::string marked = value_html(odd, "");
  const std::string red = "<td class=\"rv-nonfinite\" style=\"color:#c62828;font-weight:600\">";
  CHECK(marked.find("<td>0.</td>" + red + "nan</td>" + red + "-inf</td><td>3.</td>") != std::string::npos);
  CHECK(value_html(iota({10, 10}), "").find("rv-nonfinite") == std::string::npos);

  // Rank 4: slices of the leading axes are summarised too, and one tensor's cells capped.
  const std::string big = value_html(iota({10, 10, 10, 10}), "");
  CHECK(big.find(">[0, 0, :, :]</caption>") != std::string::npos);
  CHECK(big.find(">[5, 0, :, :]</caption>") == std::string::npos);
  CHECK(count(big, "<td") <= 1100);
  CHECK(big.size() < 100000);

  // A long vector: summarised by element count, not by shape.
  const std::string vec = value_html(iota({1000000}), "");
  CHECK(count(vec, "<td") == 7);
  CHECK(vec.find("<td>9.99999e+05</td>") != std::string::npos);  // numpy: [0.00000e+00 ... 9.99999e+05]
}

TEST_CASE("value html: text is escaped", "[repl][html]") {
  const std::string html = value_html(i32(1), "<T & \"q\" 'x'>");
  CHECK(html.find("&lt;T &amp; &quot;q&quot; &#39;x&#39;&gt;") != std::string::npos);
  CHECK(html.find("<T") == std::string::npos);

  relay::CtorDef weird;
  weird.name = "A<b>&";
  const Value v(make_ref<relay::rt::CtorObj>(&weird, 0, std::vector<Value>{i32(1)}));
  const std::string ctor = value_html(v, "");
  CHECK(ctor.find("A&lt;b&gt;&amp;") != std::string::npos);
  CHECK(ctor.find("A<b>") == std::string::npos);
}

TEST_CASE("value html: tuples, constructors, references and closures", "[repl][html]") {
  const Prelude p;
  CHECK(value_html(make_tuple({i32(1), f32(2.5)}), "(int32, float32)").find(">(1, 2.5)<") != std::string::npos);
  CHECK(value_html(make_tuple({i32(1)}), "").find(">(1,)<") != std::string::npos);
  CHECK(value_html(make_tuple({}), "").find(">()<") != std::string::npos);
  CHECK(value_html(p.make("Option", "Some", {i32(3)}), "").find("<span class=\"rv-name\">Some</span>(3)") !=
        std::string::npos);
  CHECK(value_html(Value(make_ref<relay::rt::RefObj>(i32(3))), "").find("ref(3)") != std::string::npos);
  // Closures read as the inspection model summarises them.
  CHECK(value_html(relu(), "").find("<span class=\"rv-muted\" style=\"opacity:.7\">nn.relu</span>") != std::string::npos);
  CHECK(value_html(Value(make_ref<relay::rt::ClosureObj>(p.ctor("List", "Cons"))), "").find(">Cons</span>") !=
        std::string::npos);
  CHECK(value_html(make_tuple({relu(), i32(1)}), "").find(">(<span class=\"rv-muted\" style=\"opacity:.7\">nn.relu</span>, 1)<") !=
        std::string::npos);

  // A tuple holding a matrix nests: a table of fields (index, value; no HTML list, which
  // notebooks restyle), the matrix's table inside it, and a small tuple inline.
  NDArray m = NDArray::empty({2, 2}, DataType::int_(32));
  for (int i = 0; i < 4; ++i) m.set_int(i, i + 1);
  const Value none = p.make("Option", "None", {});
  const std::string nested = value_html(make_tuple({m, make_tuple({i32(1), i32(2)}), none}), "");
  INFO(nested);
  const std::string field = "<td class=\"rv-field\" style=\"text-align:left;vertical-align:top\">";
  CHECK(nested.find("<div class=\"rv-group\"><b class=\"rv-name\">tuple</b>") != std::string::npos);
  CHECK(nested.find("(3 fields)") != std::string::npos);
  CHECK(nested.find("<tbody><tr><th>0</th>" + field + "<div class=\"rv-tensor\">") != std::string::npos);
  CHECK(nested.find("Tensor[(2, 2), int32]") != std::string::npos);
  CHECK(nested.find("<td>4</td>") != std::string::npos);
  CHECK(nested.find("<th>1</th>" + field + "(1, 2)</td>") != std::string::npos);
  CHECK(nested.find("<th>2</th>" + field + "<span class=\"rv-name\">None</span></td>") != std::string::npos);
  CHECK(nested.find("<ol") == std::string::npos);
  CHECK(nested.find("<li") == std::string::npos);

  // A reference that contains itself.
  auto r = make_ref<relay::rt::RefObj>(make_tuple({}));
  r->value = make_tuple({Value(r), m});
  CHECK(value_html(Value(r), "").find("ref(\u2026)") != std::string::npos);
  r->value = make_tuple({});  // break the cycle so the objects are freed
}

TEST_CASE("value html: long lists are flat and summarised", "[repl][html]") {
  const Prelude p;
  constexpr int kLength = 10000;
  Value list = p.make("List", "Nil", {});
  for (int i = kLength - 1; i >= 0; --i) list = p.make("List", "Cons", {i32(i), list});
  const std::string html = value_html(list, "List[int32]");
  INFO(html.substr(0, 3000));
  CHECK(html.find("<b class=\"rv-name\">Cons</b> <span class=\"rv-muted\" style=\"opacity:.7\">\u00d7 10,000, then</span> "
                  "<span class=\"rv-name\">Nil</span>") != std::string::npos);
  const std::string field = "<td class=\"rv-field\" style=\"text-align:left;vertical-align:top\">";
  CHECK(html.find("<tr><th>0</th>" + field + "0</td></tr><tr><th>1</th>" + field + "1</td></tr>") != std::string::npos);
  CHECK(html.find("<th>99</th>" + field + "99</td>") != std::string::npos);
  CHECK(html.find("<th>100</th>") == std::string::npos);
  CHECK(html.find("\u2026 9,900 more") != std::string::npos);
  CHECK(html.size() < 20000);

  // A short list is one line.
  const Value two = p.make("List", "Cons", {i32(1), p.make("List", "Cons", {i32(2), p.make("List", "Nil", {})})});
  CHECK(value_html(two, "").find("\u00d7 2, then") != std::string::npos);
  const Value one = p.make("List", "Cons", {i32(1), p.make("List", "Nil", {})});
  CHECK(value_html(one, "").find("<span class=\"rv-name\">Cons</span>(1, <span class=\"rv-name\">Nil</span>)") !=
        std::string::npos);

  // A list of tensors: each element's table, within the output's cell budget.
  Value tensors = p.make("List", "Nil", {});
  for (int i = 0; i < 300; ++i) tensors = p.make("List", "Cons", {iota({10, 10}), tensors});
  const std::string many = value_html(tensors, "");
  CHECK(many.find("\u00d7 300, then") != std::string::npos);
  CHECK(count(many, "<td") <= 5200);
  CHECK(many.find("output limit reached") != std::string::npos);
}

TEST_CASE("value html: very deep values are elided, not recursed into", "[repl][html]") {
  Value deep = i32(0);
  for (int i = 0; i < 100000; ++i) deep = make_tuple({deep, relu()});
  const std::string html = value_html(deep, "");
  CHECK(html.find("<span class=\"rv-more\">\u2026</span>") != std::string::npos);
  CHECK(html.size() < 20000);

  // Constructors without their declarations are never flattened, but stay bounded.
  relay::CtorDef cons, nil;
  cons.name = "Cons";
  nil.name = "Nil";
  Value list(make_ref<relay::rt::CtorObj>(&nil, 0, std::vector<Value>{}));
  for (int i = 0; i < 100000; ++i)
    list = Value(make_ref<relay::rt::CtorObj>(&cons, 1, std::vector<Value>{i32(i), list}));
  CHECK(value_html(list, "").size() < 20000);

  // Wide and deep: 50 fields at each of 4 levels is 6 million values; the output stops
  // at its value budget.
  Value wide = i32(1);
  for (int level = 0; level < 4; ++level) wide = make_tuple(std::vector<Value>(50, wide));
  const std::string w = value_html(wide, "");
  CHECK(w.size() < 400000);
  CHECK(w.find("\u2026") != std::string::npos);
}
