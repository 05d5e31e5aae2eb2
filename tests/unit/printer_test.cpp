// The printer's canonical layout, construct by construct, with exact expected text.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "lang/syntax/alpha_equiv.h"
#include "lang/syntax/parser.h"
#include "lang/syntax/printer.h"
#include "lang/syntax/resolve.h"

using namespace relay;

namespace {

struct Parsed {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<Module> module;
  DiagnosticBag diags;
};

std::unique_ptr<Parsed> parse(const std::string& text) {
  auto p = std::make_unique<Parsed>();
  p->file = std::make_unique<SourceFile>(0, "test.relay", text);
  ParseOptions po;
  po.require_version = false;
  p->module = parse_module(*p->file, p->diags, po);
  return p;
}

// Formats a module; the input must parse without errors.
std::string fmt(const std::string& text, PrintOptions options = {}) {
  auto p = parse(text);
  INFO(text);
  for (const Diagnostic& d : p->diags.items()) INFO(d.message);
  REQUIRE_FALSE(p->diags.has_errors());
  return print_module(*p->module, *p->file, options);
}

// Formats the body of `def @f() { BODY }` and returns the body lines, unindented.
std::string body(const std::string& text) {
  std::string out = fmt("#[version = \"0.0.5\"]\ndef @f() {\n" + text + "\n}\n");
  std::string prefix = "#[version = \"0.0.5\"]\ndef @f() {\n";
  REQUIRE(out.substr(0, prefix.size()) == prefix);
  REQUIRE(out.size() >= prefix.size() + 2);
  std::string inner = out.substr(prefix.size(), out.size() - prefix.size() - 2);  // drop "}\n"
  std::string result;
  size_t start = 0;
  while (start < inner.size()) {
    size_t e = inner.find('\n', start);
    if (e == std::string::npos) e = inner.size();
    std::string line = inner.substr(start, e - start);
    if (line.rfind("  ", 0) == 0) line = line.substr(2);
    result += line + "\n";
    start = e + 1;
  }
  return result;
}

const char* const kHeader = "#[version = \"0.0.5\"]\n";

}  // namespace

// ---------------------------------------------------------------------------------------
// Module layout

TEST_CASE("printer: version header is always first", "[printer]") {
  CHECK(fmt("def @f() { 1 }") == std::string(kHeader) + "def @f() {\n  1\n}\n");
  CHECK(fmt("#[version = \"0.0.5\"]\ndef @f() { 1 }") == std::string(kHeader) + "def @f() {\n  1\n}\n");
  CHECK(fmt("#[version = \"0.0.5\"]\n") == kHeader);
}

TEST_CASE("printer: prelude import", "[printer]") {
  CHECK(fmt("#[version = \"0.0.5\"]\n#[import = \"prelude\"]\ndef @f() { 1 }") ==
        std::string(kHeader) + "#[import = \"prelude\"]\ndef @f() {\n  1\n}\n");
}

TEST_CASE("printer: definitions in source order, one blank line apart", "[printer]") {
  CHECK(fmt("def @b() { 1 }\n\n\n\ndef @a() { 2 } type T") ==
        std::string(kHeader) +
            "def @b() {\n  1\n}\n"
            "\n"
            "def @a() {\n  2\n}\n"
            "\n"
            "type T\n");
}

TEST_CASE("printer: type definitions", "[printer]") {
  CHECK(fmt("type List[A] { Cons(A, List[A]), Nil }") ==
        std::string(kHeader) + "type List[A] {\n  Cons(A, List[A]),\n  Nil,\n}\n");
  CHECK(fmt("type T") == std::string(kHeader) + "type T\n");
  CHECK(fmt("type T[A, B]") == std::string(kHeader) + "type T[A, B]\n");
  CHECK(fmt("type T {}") == std::string(kHeader) + "type T {}\n");
  CHECK(fmt("extern type Storage") == std::string(kHeader) + "extern type Storage\n");
  // A constructor written `Nil()` prints as `Nil`.
  CHECK(fmt("type U { A(), B(int32,) }") == std::string(kHeader) + "type U {\n  A,\n  B(int32),\n}\n");
}

TEST_CASE("printer: doc comments", "[printer]") {
  std::string src = std::string(kHeader) +
                    "/// The identity.\n/// Second line.\ndef @id[A](%x: A) -> A {\n  %x\n}\n";
  CHECK(fmt(src) == src);
  // Without the source's comments, the parsed doc text is printed.
  auto p = parse(src);
  CHECK(print_module(*p->module) == src);
  PrintOptions no_comments;
  no_comments.comments = false;
  CHECK(print_module(*p->module, *p->file, no_comments) == src);
}

TEST_CASE("printer: metadata section is copied verbatim", "[printer]") {
  std::string meta =
      "#[metadata]\n{\n  \"root\": 1, \n  \"nodes\": [{\"type_key\": \"\"}, {\"type_key\": \"Map\", "
      "\"keys\": [], \"data\": []}], \n  \"b64ndarrays\": [], \n  \"attrs\": {\"tvm_version\": "
      "\"0.14.0\"}\n}\n";
  std::string src = std::string(kHeader) + "def @f() {\n  1\n}\n" + meta;
  CHECK(fmt(src) == std::string(kHeader) + "def @f() {\n  1\n}\n\n" + meta);
}

// ---------------------------------------------------------------------------------------
// Functions

TEST_CASE("printer: function headers", "[printer]") {
  CHECK(fmt("def @f[A, B](%x: A, %y, Primitive=1) -> B { %y }") ==
        std::string(kHeader) + "def @f[A, B](%x: A, %y, Primitive=1) -> B {\n  %y\n}\n");
  CHECK(fmt("def @f(%x {virtual_device=1}: int32) { %x }") ==
        std::string(kHeader) + "def @f(%x {virtual_device=1}: int32) {\n  %x\n}\n");
}

TEST_CASE("printer: long headers put each parameter on its own line", "[printer]") {
  std::string src =
      "def @main(%data: Tensor[(1, 3, 224, 224), float32], %weight: Tensor[(64, 3, 7, 7), "
      "float32], Primitive=1) -> Tensor[(1, 64, 112, 112), float32] { %data }";
  CHECK(fmt(src) == std::string(kHeader) +
                        "def @main(\n"
                        "  %data: Tensor[(1, 3, 224, 224), float32],\n"
                        "  %weight: Tensor[(64, 3, 7, 7), float32],\n"
                        "  Primitive=1\n"
                        ") -> Tensor[(1, 64, 112, 112), float32] {\n"
                        "  %data\n"
                        "}\n");
  // The limit is configurable; exactly max_width columns still fit.
  PrintOptions narrow;
  narrow.max_width = 16;
  CHECK(fmt("def @f(%x, %y) { %x }", narrow) == std::string(kHeader) + "def @f(%x, %y) {\n  %x\n}\n");
  narrow.max_width = 15;
  CHECK(fmt("def @f(%x, %y) { %x }", narrow) ==
        std::string(kHeader) + "def @f(\n  %x,\n  %y\n) {\n  %x\n}\n");
  // No parameters: nothing to break.
  narrow.max_width = 5;
  CHECK(fmt("def @f() -> int32 { 1 }", narrow) == std::string(kHeader) + "def @f() -> int32 {\n  1\n}\n");
}

TEST_CASE("printer: fn literals", "[printer]") {
  CHECK(body("fn (%x: int32) -> int32 { %x }") == "fn (%x: int32) -> int32 {\n  %x\n}\n");
  CHECK(body("fn [T](%x: T) { %x }") == "fn [T](%x: T) {\n  %x\n}\n");
  CHECK(body("fn () { 1 }") == "fn () {\n  1\n}\n");
  CHECK(body("%0 = fn (%p0, Primitive=1) { %p0 }; %0(1)") ==
        "%0 = fn (%p0, Primitive=1) {\n  %p0\n};\n%0(1)\n");
  PrintOptions narrow;
  narrow.max_width = 30;
  CHECK(fmt("def @f() { let %g = fn (%a: int32, %b: int32) { %a }; %g }", narrow) ==
        std::string(kHeader) +
            "def @f() {\n"
            "  let %g = fn (\n"
            "    %a: int32,\n"
            "    %b: int32\n"
            "  ) {\n"
            "    %a\n"
            "  };\n"
            "  %g\n"
            "}\n");
}

// ---------------------------------------------------------------------------------------
// Blocks

TEST_CASE("printer: bindings one per line", "[printer]") {
  CHECK(body("let %x: int32 = 1; %0 = add(%x, %x); %0; free_var %z: float32; %z") ==
        "let %x: int32 = 1;\n%0 = add(%x, %x);\n%0;\nfree_var %z: float32;\n%z\n");
}

TEST_CASE("printer: braced blocks keep their braces", "[printer]") {
  CHECK(body("{ let %x = 1; %x }; 2") == "{\n  let %x = 1;\n  %x\n};\n2\n");
  CHECK(body("let %y = 1; { let %x = %y; %x }") == "let %y = 1;\n{\n  let %x = %y;\n  %x\n}\n");
  // A block that binds nothing is just its value.
  CHECK(body("{ 1 }") == "1\n");
  CHECK(body("{ { 1 } }; 2") == "1;\n2\n");
}

TEST_CASE("printer: blank lines between bindings are kept (one)", "[printer]") {
  CHECK(body("let %x = 1;\n\n\n  let %y = 2;\n  %y") == "let %x = 1;\n\nlet %y = 2;\n%y\n");
  CHECK(body("\n\n  let %x = 1; %x") == "let %x = 1;\n%x\n");
}

TEST_CASE("printer: bindings and matches as binding values get parentheses", "[printer]") {
  // TVM parses a `binop` after `=`.
  CHECK(body("let %x = (let %y = 1; %y); %x") == "let %x = (\n  let %y = 1;\n  %y\n);\n%x\n");
  CHECK(body("%0 = (let %y = 1; %y); %0") == "%0 = (\n  let %y = 1;\n  %y\n);\n%0\n");
  CHECK(body("let %x = match (1) { _ => 2 }; %x") == "let %x = (match (1) {\n  _ => 2,\n});\n%x\n");
  // Redundant parentheses elsewhere are dropped.
  CHECK(body("let %x = ((add(1, 2))); (%x)") == "let %x = add(1, 2);\n%x\n");
}

// ---------------------------------------------------------------------------------------
// Control flow

TEST_CASE("printer: if", "[printer]") {
  CHECK(body("if (True) { 1 } else { let %x = 2; %x }") ==
        "if (True) {\n  1\n} else {\n  let %x = 2;\n  %x\n}\n");
}

TEST_CASE("printer: match clauses", "[printer]") {
  std::string src = std::string(kHeader) +
                    "type L { C(int32, L), N }\n"
                    "def @f(%l: L) {\n"
                    "  match (%l) { C(%h, C(_, %t)) => %h, N => { let %z = 0; %z }, _ => 1 }\n"
                    "}\n";
  CHECK(fmt(src) == std::string(kHeader) +
                        "type L {\n  C(int32, L),\n  N,\n}\n\n"
                        "def @f(%l: L) {\n"
                        "  match (%l) {\n"
                        "    C(%h, C(_, %t)) => %h,\n"
                        "    N => {\n"
                        "      let %z = 0;\n"
                        "      %z\n"
                        "    },\n"
                        "    _ => 1,\n"
                        "  }\n"
                        "}\n");
  CHECK(body("match? ((1, 2)) { (%a, %b: int32) => %a, }") ==
        "match? (1, 2) {\n  (%a, %b: int32) => %a,\n}\n");
  CHECK(body("match (1) { (%a) => %a }") == "match (1) {\n  (%a,) => %a,\n}\n");
  // A single-line body written in braces loses them; a multi-line one gets them.
  CHECK(body("match (1) { _ => { 2 } }") == "match (1) {\n  _ => 2,\n}\n");
  CHECK(body("match (1) { _ => if (True) { 1 } else { 2 } }") ==
        "match (1) {\n  _ => {\n    if (True) {\n      1\n    } else {\n      2\n    }\n  },\n}\n");
}

// ---------------------------------------------------------------------------------------
// Expressions

TEST_CASE("printer: calls and attributes", "[printer]") {
  CHECK(body("nn.conv2d(%x, %w, strides=[1, 1], padding=[0, 0, 0, 0], data_layout=\"NCHW\")") ==
        "nn.conv2d(%x, %w, strides=[1, 1], padding=[0, 0, 0, 0], data_layout=\"NCHW\")\n");
  CHECK(body("f(1)(2)") == "f(1)(2)\n");
  CHECK(body("nn.dense(%x, %w, units=None)") == "nn.dense(%x, %w, units=None)\n");
  CHECK(body("cast(%x, meta[relay.attrs.CastAttrs][0])") == "cast(%x, meta[relay.attrs.CastAttrs][0])\n");
  CHECK(body("f(axis=-1, big=3i64, small=2i16, x=1e-05f, d=0.1f64, h=1.5f16, u=1.5)") ==
        "f(axis=-1, big=3i64, small=2i16, x=1e-05f, d=0.1f64, h=1.5f16, u=1.5f)\n");
  CHECK(body("f(b=True, c=False, n=None, m=nullptr, s=\"a\\\"b\\\\c\\n\", e=\"\")") ==
        "f(b=True, c=False, n=None, m=None, s=\"a\\\"b\\\\c\\n\", e=\"\")\n");
  CHECK(body("f(a=[[1, 2], [], [\"x\", None]], p=(3), q=(1, 2))") ==
        "f(a=[[1, 2], [], [\"x\", None]], p=3, q=[1, 2])\n");
  CHECK(body("f(v=%x, t=%t.0, g=@g, c=@g(1), o=nn.relu)") ==
        "f(v=%x, t=%t.0, g=@g, c=(@g(1)), o=nn.relu)\n");
  CHECK(body("f(relay.reshape_only=1, attrs_type_key=\"relay.attrs.X\")") ==
        "f(relay.reshape_only=1, attrs_type_key=\"relay.attrs.X\")\n");
}

TEST_CASE("printer: tuples and projections", "[printer]") {
  CHECK(body("(1, 2)") == "(1, 2)\n");
  CHECK(body("(1,)") == "(1,)\n");
  CHECK(body("()") == "()\n");
  CHECK(body("%t.0") == "%t.0\n");
  // TVM cannot read `%t.0.1`.
  CHECK(body("(%t.0).1") == "(%t.0).1\n");
  CHECK(body("f(%x).1") == "(f(%x)).1\n");
  CHECK(body("(%a + %b).0") == "(%a + %b).0\n");
  CHECK(body("(1, 2).0") == "(1, 2).0\n");
  CHECK(body("(1f).0") == "(1f).0\n");
}

TEST_CASE("printer: references", "[printer]") {
  CHECK(body("let %r = ref(1); ref_write(%r, ref_read(%r))") ==
        "let %r = ref(1);\nref_write(%r, ref_read(%r))\n");
}

TEST_CASE("printer: infix operators with minimal parentheses", "[printer]") {
  CHECK(body("%a + %b * %c") == "%a + %b * %c\n");
  CHECK(body("%a * %b + %c") == "%a * %b + %c\n");
  CHECK(body("%a - %b - %c") == "%a - %b - %c\n");
  CHECK(body("%a - (%b - %c)") == "%a - (%b - %c)\n");
  CHECK(body("%a == %b < %c + 1") == "%a == %b < %c + 1\n");
  CHECK(body("%a/%b") == "%a / %b\n");
  // Parentheses the user put around an infix operand are kept ...
  CHECK(body("(%a * %b) + %c") == "(%a * %b) + %c\n");
  CHECK(body("(%a - %b) - %c") == "(%a - %b) - %c\n");
  // ... others are dropped.
  CHECK(body("((%a)) + (f(%b))") == "%a + f(%b)\n");
  CHECK(body("let %x = (%a + %b); %x") == "let %x = %a + %b;\n%x\n");
  // Operands that TVM does not parse as `binop` operands.
  CHECK(body("%a + (let %x = 1; %x)") == "%a + (\n  let %x = 1;\n  %x\n)\n");
  CHECK(body("%a + (match (1) { _ => 2 })") == "%a + (match (1) {\n  _ => 2,\n})\n");
  // An infix call as a callee or projection base.
  CHECK(body("(%f + %g)(1)") == "(%f + %g)(1)\n");
  // `add(...)` written as a call stays a call.
  CHECK(body("add(%a, %b)") == "add(%a, %b)\n");
}

TEST_CASE("printer: unary minus stays as written", "[printer]") {
  CHECK(body("-%x") == "-%x\n");
  CHECK(body("-f(%x)") == "-f(%x)\n");
  CHECK(body("-%t.0") == "-%t.0\n");
  CHECK(body("-(%a + %b)") == "-(%a + %b)\n");
  CHECK(body("-(1f)") == "-(1f)\n");
  CHECK(body("-(-%x)") == "-(-%x)\n");
  CHECK(body("-%a * %b") == "-%a * %b\n");
  CHECK(body("%a - -%b") == "%a - -%b\n");
  CHECK(body("negative(%x)") == "negative(%x)\n");
  // A minus before a literal is part of the literal.
  CHECK(body("-1f") == "-1f\n");
  CHECK(body("%a - -1") == "%a - -1\n");
}

TEST_CASE("printer: constants", "[printer]") {
  CHECK(body("(5, 5i64, 5i16, -5, 5i32, 3000000000)") == "(5, 5i64, 5i16, -5, 5, 3000000000i64)\n");
  CHECK(body("(1f, 0.5f, 1e-05f, 1.5, 1.0f, 100000f, 1e20f, -2.5f)") ==
        "(1f, 0.5f, 1e-05f, 1.5f, 1f, 1e+05f, 1e+20f, -2.5f)\n");
  CHECK(body("(0.1f, 0.1f64, 0.5f16, 1f32)") == "(0.1f, 0.1f64, 0.5f16, 1f)\n");
  CHECK(body("(True, False)") == "(True, False)\n");
  CHECK(body("(inff, -inff, nanf)") == "(inff, -inff, nanf)\n");
}

TEST_CASE("printer: literal formatting helpers", "[printer]") {
  CHECK(format_float_literal(1.0, DataType::float_(32)) == "1f");
  CHECK(format_float_literal(0.333333, DataType::float_(32)) == "0.333333f");
  CHECK(format_float_literal(1e-5, DataType::float_(32)) == "1e-05f");
  CHECK(format_float_literal(0.1, DataType::float_(64)) == "0.1f64");
  CHECK(format_float_literal(2.0, DataType::float_(16)) == "2f16");
  CHECK(format_float_literal(-1.0, DataType::float_(32)) == "-1f");
  CHECK(format_float_literal(std::numeric_limits<double>::infinity(), DataType::float_(32)) == "inff");
  CHECK(format_float_literal(-std::numeric_limits<double>::infinity(), DataType::float_(32)) == "-inff");
  CHECK(format_float_literal(std::nan(""), DataType::float_(32)) == "nanf");
  // The largest float: its shortest digits would read back above FLT_MAX.
  CHECK(format_float_literal(std::numeric_limits<float>::max(), DataType::float_(32)) ==
        "3.4028234663852886e+38f");
  CHECK(body("3.4028234663852886e+38f") == "3.4028234663852886e+38f\n");
  CHECK(format_int_literal(5, DataType::int_(32)) == "5");
  CHECK(format_int_literal(-5, DataType::int_(64)) == "-5i64");
  CHECK(format_int_literal(5, DataType::int_(16)) == "5i16");
  CHECK(format_int_literal(1, DataType::bool_()) == "True");
}

// ---------------------------------------------------------------------------------------
// Types

TEST_CASE("printer: types", "[printer]") {
  auto ty = [](const std::string& t) {
    std::string out = fmt("def @f(%x: " + t + ") { %x }");
    std::string prefix = std::string(kHeader) + "def @f(%x: ";
    REQUIRE(out.substr(0, prefix.size()) == prefix);
    return out.substr(prefix.size(), out.find(") {\n") - prefix.size());
  };
  CHECK(ty("Tensor[(1, 2), float32]") == "Tensor[(1, 2), float32]");
  CHECK(ty("Tensor[(3), float32]") == "Tensor[(3), float32]");
  CHECK(ty("Tensor[(3,), float32]") == "Tensor[(3), float32]");
  CHECK(ty("Tensor[(), float32]") == "float32");
  CHECK(ty("Tensor[(), bool]") == "bool");
  CHECK(ty("Tensor[(), uint8]") == "uint8");
  CHECK(ty("Tensor[(), bfloat16]") == "Tensor[(), bfloat16]");
  CHECK(ty("int64") == "int64");
  CHECK(ty("Tensor[(3i64, ?, n, meta[tir.Var][0]), int8]") == "Tensor[(3i64, ?, n, meta[tir.Var][0]), int8]");
  CHECK(ty("Tensor[((n + 1) * 2, n + (m * 2), (n - 1) - 1, n - (m - 1), n / (2 * m)), int8]") ==
        "Tensor[((n + 1) * 2, n + m * 2, n - 1 - 1, n - (m - 1), n / (2 * m)), int8]");
  CHECK(ty("(int32, float32)") == "(int32, float32)");
  CHECK(ty("(int32,)") == "(int32,)");
  CHECK(ty("(int32)") == "(int32,)");  // a parenthesised type is always a tuple
  CHECK(ty("()") == "()");
  CHECK(ty("fn (int32, float32) -> bool") == "fn (int32, float32) -> bool");
  CHECK(ty("fn () -> ()") == "fn () -> ()");
  CHECK(ty("fn [T](T) -> T") == "fn [T](T) -> T");
  CHECK(ty("List[int32]") == "List[int32]");
  CHECK(ty("Storage") == "Storage");
  CHECK(ty("Storage[]") == "Storage[]");
  CHECK(ty("ref(int32)") == "ref(int32)");
  CHECK(ty("(_, int32)") == "(_, int32)");
  CHECK(ty("_") == "_");
}

TEST_CASE("printer: print_type and print_expr need no source", "[printer]") {
  auto p = parse("def @f(%x: Tensor[(1, n), float32], %y: fn (int32) -> (int32,)) { add(%x, 1.5) }");
  REQUIRE_FALSE(p->diags.has_errors());
  const FunctionExpr* fn = p->module->defs[0].func->fn;
  CHECK(print_type(fn->params[0]->annotation) == "Tensor[(1, n), float32]");
  CHECK(print_type(fn->params[1]->annotation) == "fn (int32) -> (int32,)");
  CHECK(print_expr(fn->body) == "add(%x, 1.5f)");
  CHECK(print_expr(fn) == "fn (%x: Tensor[(1, n), float32], %y: fn (int32) -> (int32,)) {\n  add(%x, 1.5f)\n}");
  CHECK(print_type(nullptr) == "_");
}

TEST_CASE("printer: print_expr with comments", "[printer]") {
  auto p = parse("def @f() { /* a */ add(1, /* b */ 2) /* c */ }");
  REQUIRE_FALSE(p->diags.has_errors());
  const Expr* e = p->module->defs[0].func->fn->body;
  // Only the comments inside the expression's span.
  CHECK(print_expr(e, {}, p->file.get(), &p->module->comments) == "add(1, /* b */ 2)");
  CHECK(print_expr(e) == "add(1, 2)");
}

// ---------------------------------------------------------------------------------------
// Comments

TEST_CASE("printer: TVM's type comments stay after their node", "[printer]") {
  std::string src = std::string(kHeader) +
                    "def @main(%x: Tensor[(1, 10), float32] /* ty=Tensor[(1, 10), float32] */) {\n"
                    "  let %y: float32 /* ty=float32 */ = sum(%x) /* ty=float32 */;\n"
                    "  %0 = fn (%p: float32) {\n"
                    "    %p\n"
                    "  } /* ty=fn (float32) -> float32 */;\n"
                    "  %0(%y) /* ty=float32 */\n"
                    "}\n";
  CHECK(fmt(src) == src);
}

TEST_CASE("printer: line and block comments", "[printer]") {
  std::string src = std::string(kHeader) +
                    "// A file comment.\n"
                    "\n"
                    "/* A block\n   comment. */\n"
                    "def @f(%x, // the input\n"
                    "       %y) {\n"
                    "  // First.\n"
                    "  let %a = %x; // trailing\n"
                    "\n"
                    "  /* before */ let %b = add(%a, /* inline */ %y);\n"
                    "  %b // result\n"
                    "  // at the end\n"
                    "}\n"
                    "// after everything\n";
  std::string expected = std::string(kHeader) +
                         "// A file comment.\n"
                         "\n"
                         "/* A block\n   comment. */\n"
                         "def @f(\n"
                         "  %x, // the input\n"
                         "  %y\n"
                         ") {\n"
                         "  // First.\n"
                         "  let %a = %x; // trailing\n"
                         "\n"
                         "  /* before */ let %b = add(%a, /* inline */ %y);\n"
                         "  %b // result\n"
                         "  // at the end\n"
                         "}\n"
                         "// after everything\n";
  std::string out = fmt(src);
  CHECK(out == expected);
  CHECK(fmt(out) == out);
  // the same file with CRLF line endings prints the same LF file: block comments' lines too
  std::string crlf;
  for (char c : src) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  CHECK(fmt(crlf) == expected);
}

TEST_CASE("printer: a line comment inside an expression breaks the line", "[printer]") {
  std::string out = body("f(1, // one\n 2)");
  CHECK(out == "f(1, // one\n2)\n");
  CHECK(body(out) == out);
  out = body("let %x = // why\n  1; %x");
  CHECK(out == "let %x = // why\n1;\n%x\n");
  CHECK(body(out) == out);
}

TEST_CASE("printer: comments in clauses and branches", "[printer]") {
  std::string src = std::string(kHeader) +
                    "def @f(%x) {\n"
                    "  match (%x) {\n"
                    "    // first clause\n"
                    "    _ => 1, // one\n"
                    "  }\n"
                    "}\n";
  CHECK(fmt(src) == src);
  src = std::string(kHeader) +
        "def @f(%x) {\n"
        "  if (%x) { // yes\n"
        "    1\n"
        "    // done\n"
        "  } else {\n"
        "    2 /* two */\n"
        "  }\n"
        "}\n";
  CHECK(fmt(src) == src);
}

TEST_CASE("printer: comments can be dropped", "[printer]") {
  PrintOptions o;
  o.comments = false;
  CHECK(fmt("// c\ndef @f(%x /* t */) { %x // r\n}", o) == std::string(kHeader) + "def @f(%x) {\n  %x\n}\n");
}

// ---------------------------------------------------------------------------------------
// Alpha-equivalence

TEST_CASE("alpha_equal: bound variables by position", "[printer][alpha]") {
  auto a = parse("def @f(%x) { let %y = %x; %y }");
  auto b = parse("def @f(%a) { let %b = %a; %b }");
  auto c = parse("def @f(%a) { let %b = %a; %a }");
  DiagnosticBag d;
  resolve_names(*a->module, d);
  resolve_names(*b->module, d);
  resolve_names(*c->module, d);
  std::string why;
  CHECK(alpha_equal(*a->module, *b->module, &why));
  CHECK_FALSE(alpha_equal(*a->module, *c->module, &why));
  CHECK(why.find("def @f") != std::string::npos);
  AlphaEqualOptions names;
  names.compare_var_names = true;
  CHECK_FALSE(alpha_equal(*a->module, *b->module, names, &why));
}

TEST_CASE("alpha_equal: ignores layout, comments, parentheses and suffixes", "[printer][alpha]") {
  auto a = parse("def @f(%x) { add(%x, 1.5) }");
  auto b = parse("// c\ndef @f(%x) {\n  (add((%x), 1.5f)) /* d */\n}");
  auto c = parse("def @f(%x) { add(%x, 2.5f) }");
  auto d = parse("def @f(%x) { %x + 1.5f }");
  std::string why;
  CHECK(alpha_equal(*a->module, *b->module, &why));
  CHECK_FALSE(alpha_equal(*a->module, *c->module, &why));
  CHECK(why.find("1.5f vs 2.5f") != std::string::npos);
  CHECK_FALSE(alpha_equal(*a->module, *d->module, &why));
  AlphaEqualOptions loose;
  loose.compare_call_syntax = false;
  CHECK(alpha_equal(*a->module, *d->module, loose, &why));
}

TEST_CASE("alpha_equal: types and attributes", "[printer][alpha]") {
  auto a = parse("def @f(%x: Tensor[(1, 2), float32]) { f(%x, axis=[1, 2]) }");
  auto b = parse("def @f(%x: Tensor[(1, 3), float32]) { f(%x, axis=[1, 2]) }");
  auto c = parse("def @f(%x: Tensor[(1, 2), float32]) { f(%x, axis=[1, 3]) }");
  std::string why;
  CHECK_FALSE(alpha_equal(*a->module, *b->module, &why));
  CHECK(why.find("Tensor[(1, 2), float32] vs Tensor[(1, 3), float32]") != std::string::npos);
  CHECK_FALSE(alpha_equal(*a->module, *c->module, &why));
  CHECK(why.find("attribute axis") != std::string::npos);
}

// ---------------------------------------------------------------------------------------
// `relay fmt`

namespace {

struct RunResult {
  int status = -1;
  std::string out;
};

RunResult run(const std::string& args) {
  RunResult r;
  std::string cmd = std::string(RELAY_BINARY) + " " + args + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void spit(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

}  // namespace

TEST_CASE("relay fmt: stdout, --check, --write, stdin and errors", "[printer][fmt]") {
  namespace fs = std::filesystem;
  if (!fs::exists(RELAY_BINARY)) {
    WARN("relay binary not built: " << RELAY_BINARY);
    return;
  }
  fs::path dir = fs::temp_directory_path() / ("relay_fmt_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string messy = "def @f(%x) { let %y = %x;   %y }\n";
  std::string clean = std::string(kHeader) + "def @f(%x) {\n  let %y = %x;\n  %y\n}\n";
  spit(dir / "a.relay", messy);
  spit(dir / "b.rly", clean);
  spit(dir / "bad.relay", "def @f( { }\n");
  std::string a = (dir / "a.relay").string(), b = (dir / "b.rly").string(),
              bad = (dir / "bad.relay").string();

  RunResult r = run("fmt " + a);
  CHECK(r.status == 0);
  CHECK(r.out == clean);
  CHECK(slurp(a) == messy);  // not modified without --write

  r = run("fmt --check " + a + " " + b);
  CHECK(r.status == 1);
  CHECK(r.out == a + "\n");
  r = run("fmt --check " + b);
  CHECK(r.status == 0);
  CHECK(r.out.empty());

  r = run("fmt --write " + a + " " + b);
  CHECK(r.status == 0);
  CHECK(r.out.empty());
  CHECK(slurp(a) == clean);
  CHECK(slurp(b) == clean);

  r = run("fmt - < " + (dir / "bad.relay").string());
  CHECK(r.status == 1);
  r = run("fmt - < " + bad.substr(0, bad.size() - 9) + "a.relay");
  CHECK(r.status == 0);
  CHECK(r.out == clean);

  // Syntax errors: refused, file untouched.
  r = run("fmt --write " + bad);
  CHECK(r.status == 1);
  CHECK(slurp(bad) == "def @f( { }\n");

  // Usage errors.
  CHECK(run("fmt").status == 2);
  CHECK(run("fmt --frobnicate " + a).status == 2);
  CHECK(run("fmt --write --check " + a).status == 2);
  // A directory stands for the Relay files below it.
  spit(dir / "c.relay", messy);
  r = run("fmt --check " + dir.string());
  CHECK(r.status == 1);
  CHECK(r.out.find("bad.relay") == std::string::npos);
  CHECK(r.out.find("c.relay") != std::string::npos);
  fs::remove_all(dir);
}
