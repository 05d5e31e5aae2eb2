// Name resolution: scoping and shadowing, globals in any order, constructors versus
// operators, did-you-mean suggestions with their fixes, the unused-variable warning.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "lang/syntax/ast.h"
#include "tests/support/module_lookup.h"
#include "lang/syntax/frontend.h"
#include "lang/syntax/resolve.h"

using namespace relay;

namespace {

struct Resolved {
  SourceManager sources;
  DiagnosticBag diags;
  FrontendResult result;
  FileId file = 0;

  Module& module() const { return *result.module; }
  std::string_view text(Span s) const { return sources.get(file).slice(s); }
  std::string codes() const { return testing::diagnostic_codes(diags); }
  FuncDef* def(std::string_view name) const {
    FuncDef* f = testing::find_def(*result.module, name);
    if (!f) FAIL("no definition @" << std::string(name));
    return f;
  }
  TypeDef* type(std::string_view name) const {
    TypeDef* t = testing::find_type_def(*result.module, name);
    if (!t) FAIL("no type " << std::string(name));
    return t;
  }
  const Diagnostic& diag(std::string_view code) const {
    for (const auto& d : diags.items())
      if (d.code() == code) return d;
    FAIL("no diagnostic " << std::string(code) << " among " << codes());
    return diags.items().front();
  }
};

std::unique_ptr<Resolved> resolve(std::string text) {
  auto r = std::make_unique<Resolved>();
  r->file = r->sources.add("test.relay", "#[version = \"0.0.5\"]\n" + std::move(text));
  r->result = analyze_file(r->sources, r->file, r->diags);
  return r;
}

// Every reference expression in a tree, in source order (a test helper: recursive).
void collect(Expr* e, std::vector<RefExpr*>& out);
void collect_attrs(std::span<Attr> attrs, std::vector<RefExpr*>& out) {
  for (const Attr& a : attrs)
    if (a.value && a.value->kind == AttrValueKind::Expr) collect(a.value->expr, out);
}
void collect(Expr* e, std::vector<RefExpr*>& out) {
  if (!e) return;
  if (RefExpr* r = as_ref(e)) {
    out.push_back(r);
    return;
  }
  switch (e->kind) {
    case ExprKind::Tuple:
      for (Expr* f : static_cast<TupleExpr*>(e)->fields) collect(f, out);
      break;
    case ExprKind::Function:
      collect(static_cast<FunctionExpr*>(e)->body, out);
      break;
    case ExprKind::Call: {
      auto* c = static_cast<CallExpr*>(e);
      collect(c->callee, out);
      for (Expr* a : c->args) collect(a, out);
      collect_attrs(c->attrs, out);
      break;
    }
    case ExprKind::Block: {
      auto* b = static_cast<BlockExpr*>(e);
      for (Binding& bind : b->bindings) collect(bind.value, out);
      collect(b->result, out);
      break;
    }
    case ExprKind::If: {
      auto* i = static_cast<IfExpr*>(e);
      collect(i->cond, out);
      collect(i->then_branch, out);
      collect(i->else_branch, out);
      break;
    }
    case ExprKind::Match: {
      auto* m = static_cast<MatchExpr*>(e);
      collect(m->scrutinee, out);
      for (Clause& c : m->clauses) collect(c.body, out);
      break;
    }
    case ExprKind::TupleGetItem:
      collect(static_cast<TupleGetItemExpr*>(e)->tuple, out);
      break;
    case ExprKind::RefCreate:
      collect(static_cast<RefCreateExpr*>(e)->value, out);
      break;
    case ExprKind::RefRead:
      collect(static_cast<RefReadExpr*>(e)->ref, out);
      break;
    case ExprKind::RefWrite:
      collect(static_cast<RefWriteExpr*>(e)->ref, out);
      collect(static_cast<RefWriteExpr*>(e)->value, out);
      break;
    default:
      break;
  }
}

// The references named `name` (without sigil) in @fn, in source order.
std::vector<RefExpr*> refs(const Resolved& r, std::string_view fn, std::string_view name) {
  std::vector<RefExpr*> all, out;
  collect(r.def(fn)->fn->body, all);
  for (RefExpr* x : all)
    if (x->name == name) out.push_back(x);
  return out;
}

// The first binding of `name` in a flat block.
VarDecl* binder(Expr* block, std::string_view name) {
  auto* b = as<BlockExpr>(block);
  REQUIRE(b != nullptr);
  for (Binding& bind : b->bindings)
    if (bind.var && bind.var->name == name) return bind.var;
  FAIL("no binding %" << std::string(name));
  return nullptr;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Locals

TEST_CASE("resolve: parameters and let bindings", "[resolve]") {
  auto r = resolve("def @main(%x: float32) { let %y = add(%x, %x); %y }\n");
  REQUIRE(r->diags.size() == 0);
  FunctionExpr* fn = r->def("main")->fn;
  auto xs = refs(*r, "main", "x");
  REQUIRE(xs.size() == 2);
  CHECK(xs[0]->decl == fn->params[0]);
  CHECK(xs[1]->decl == fn->params[0]);
  CHECK(fn->params[0]->use_count == 2);
  auto ys = refs(*r, "main", "y");
  REQUIRE(ys.size() == 1);
  CHECK(ys[0]->decl == binder(fn->body, "y"));
  CHECK(ys[0]->decl->kind == VarKind::Let);
  CHECK(ys[0]->decl->use_count == 1);
}

TEST_CASE("resolve: let shadows a parameter", "[resolve]") {
  auto r = resolve("def @main(%x: float32) { let %x = 1f; let %y = %x; %y }\n");
  INFO(r->codes());
  REQUIRE(r->diags.size() == 0);  // an unused parameter is not reported
  FunctionExpr* fn = r->def("main")->fn;
  auto xs = refs(*r, "main", "x");
  REQUIRE(xs.size() == 1);
  CHECK(xs[0]->decl == binder(fn->body, "x"));
  CHECK(xs[0]->decl != fn->params[0]);
  CHECK(fn->params[0]->use_count == 0);
}

TEST_CASE("resolve: a let variable is visible in its own value (local recursion)", "[resolve]") {
  auto r = resolve(
      "def @main(%n: int32) {\n"
      "  let %loop = fn (%i: int32) -> int32 { if (%i > 0) { %loop(%i - 1) } else { %i } };\n"
      "  %loop(%n)\n"
      "}\n");
  INFO(r->codes());
  REQUIRE(r->diags.size() == 0);
  VarDecl* loop = binder(r->def("main")->fn->body, "loop");
  auto uses = refs(*r, "main", "loop");
  REQUIRE(uses.size() == 2);
  CHECK(uses[0]->decl == loop);  // inside its own value
  CHECK(uses[1]->decl == loop);
}

TEST_CASE("resolve: let %x = f(%x) refers to the new %x, as in TVM", "[resolve]") {
  auto r = resolve("def @main(%x: float32) { let %x = negative(%x); %x }\n");
  FunctionExpr* fn = r->def("main")->fn;
  VarDecl* inner = binder(fn->body, "x");
  auto xs = refs(*r, "main", "x");
  REQUIRE(xs.size() == 2);
  CHECK(xs[0]->decl == inner);
  CHECK(xs[1]->decl == inner);
}

TEST_CASE("resolve: a nested block's bindings end with the block", "[resolve]") {
  auto r = resolve("def @main(%x: float32) { let %a = ({ let %b = %x; %b }); add(%a, %b) }\n");
  CHECK(r->codes() == "E0040");
  CHECK(r->text(r->diag("E0040").primary().span) == "%b");
}

TEST_CASE("resolve: clause scopes", "[resolve]") {
  auto r = resolve(
      "type O { S(int32), N }\n"
      "def @main(%o: O, %v: int32) {\n"
      "  %0 = match (%o) { S(%v) => %v, N => %v };\n"
      "  %0\n"
      "}\n");
  INFO(r->codes());
  REQUIRE(r->diags.size() == 0);
  auto* b = as<BlockExpr>(r->def("main")->fn->body);
  REQUIRE(b != nullptr);
  auto* m = as<MatchExpr>(b->bindings[0].value);
  REQUIRE(m != nullptr);
  VarDecl* pattern_v = m->clauses[0].pattern->fields[0]->var;
  CHECK(as_ref(m->clauses[0].body)->decl == pattern_v);             // the pattern variable
  CHECK(as_ref(m->clauses[1].body)->decl == r->def("main")->fn->params[1]);  // the parameter
  CHECK(m->clauses[0].pattern->ctor == r->type("O")->ctors[0]);
}

TEST_CASE("resolve: pattern variables are not visible after the match", "[resolve]") {
  auto r = resolve(
      "type O { S(int32), N }\n"
      "def @main(%o: O) {\n"
      "  %0 = match (%o) { S(%v) => %v, N => 0 };\n"
      "  add(%0, %v)\n"
      "}\n");
  CHECK(r->codes() == "E0040");
}

TEST_CASE("resolve: if branches are separate scopes", "[resolve]") {
  auto r = resolve(
      "def @main(%c: bool) {\n"
      "  %0 = if (%c) { let %t = 1; %t } else { %t };\n"
      "  add(%0, %t)\n"
      "}\n");
  CHECK(r->codes() == "E0040,E0040");
  CHECK(r->diags.items()[0].primary().span.begin < r->diags.items()[1].primary().span.begin);
}

TEST_CASE("resolve: graph variables are visible only after their binding", "[resolve]") {
  auto r = resolve(
      "def @main(%x: float32) {\n"
      "  %0 = add(%x, %1);\n"
      "  %1 = negative(%x);\n"
      "  %2 = fn () { %1 };\n"
      "  (%0, %1, %2)\n"
      "}\n");
  CHECK(r->codes() == "E0041");
  CHECK(r->text(r->diag("E0041").primary().span) == "%1");
  auto ones = refs(*r, "main", "1");
  REQUIRE(ones.size() == 3);
  CHECK(ones[0]->decl == nullptr);
  CHECK(ones[1]->decl != nullptr);  // inside the closure
  CHECK(ones[1]->decl == ones[2]->decl);
  CHECK(ones[2]->decl->kind == VarKind::Graph);
}

TEST_CASE("resolve: free_var is visible everywhere after it", "[resolve]") {
  auto r = resolve("def @main() { free_var %w: float32; %0 = fn () { %w }; %0() }\n");
  INFO(r->codes());
  REQUIRE(r->diags.size() == 0);
  auto ws = refs(*r, "main", "w");
  REQUIRE(ws.size() == 1);
  REQUIRE(ws[0]->decl != nullptr);
  CHECK(ws[0]->decl->kind == VarKind::FreeVar);
}

TEST_CASE("resolve: closures see enclosing variables", "[resolve]") {
  auto r = resolve("def @main(%x: float32) { let %f = fn (%y: float32) { add(%x, %y) }; %f(1f) }\n");
  REQUIRE(r->diags.size() == 0);
  auto xs = refs(*r, "main", "x");
  REQUIRE(xs.size() == 1);
  CHECK(xs[0]->decl == r->def("main")->fn->params[0]);
}

// ---------------------------------------------------------------------------------------
// Globals, types, constructors, operators

TEST_CASE("resolve: globals are visible before their definition", "[resolve]") {
  auto r = resolve("def @a(%x: int32) { @b(%x) }\ndef @b(%y: int32) { @a(%y) }\n");
  REQUIRE(r->diags.size() == 0);
  auto bs = refs(*r, "a", "b");
  REQUIRE(bs.size() == 1);
  CHECK(bs[0]->kind == ExprKind::GlobalRef);
  CHECK(bs[0]->global == r->def("b"));
  CHECK(refs(*r, "b", "a")[0]->global == r->def("a"));
}

TEST_CASE("resolve: constructors versus operators", "[resolve]") {
  auto r = resolve(
      "def @main(%x: float32) { (Pair(%x, add(%x, %x)), Unit, nn.relu(%x)) }\n"
      "type P { Pair(float32, float32), Unit }\n");
  INFO(r->codes());
  REQUIRE(r->diags.size() == 0);
  TypeDef* p = r->type("P");
  auto pair = refs(*r, "main", "Pair");
  REQUIRE(pair.size() == 1);
  CHECK(pair[0]->kind == ExprKind::CtorRef);
  CHECK(pair[0]->ctor == p->ctors[0]);  // defined after its use: an extension
  auto unit = refs(*r, "main", "Unit");
  REQUIRE(unit.size() == 1);
  CHECK(unit[0]->kind == ExprKind::CtorRef);
  CHECK(unit[0]->ctor == p->ctors[1]);
  auto add = refs(*r, "main", "add");
  REQUIRE(add.size() == 1);
  CHECK(add[0]->kind == ExprKind::OpRef);
  REQUIRE(add[0]->op != nullptr);
  auto relu = refs(*r, "main", "nn.relu");
  REQUIRE(relu.size() == 1);
  CHECK(relu[0]->kind == ExprKind::OpRef);
}

TEST_CASE("resolve: infix operators and unary minus resolve to operators", "[resolve]") {
  auto r = resolve("def @main(%a: float32, %b: float32) { -%a * %b + %a / %b - %a == %b }\n");
  REQUIRE(r->diags.size() == 0);
  for (std::string_view name : {"negative", "multiply", "add", "divide", "subtract", "equal"}) {
    INFO(std::string(name));
    auto ops = refs(*r, "main", name);
    REQUIRE(ops.size() == 1);
    CHECK(ops[0]->kind == ExprKind::OpRef);
  }
}

TEST_CASE("resolve: a constructor shadows an operator of the same name", "[resolve]") {
  auto r = resolve("type T { add(int32) }\ndef @main() { add(1) }\n");
  REQUIRE(r->diags.size() == 0);
  auto a = refs(*r, "main", "add");
  REQUIRE(a.size() == 1);
  CHECK(a[0]->kind == ExprKind::CtorRef);
}

TEST_CASE("resolve: types, type parameters and ADTs", "[resolve]") {
  auto r = resolve(
      "type Box[A] { MkBox(A) }\n"
      "def @unbox[B](%b: Box[B]) -> B { match (%b) { MkBox(%v) => %v } }\n");
  INFO(r->codes());
  REQUIRE(r->diags.size() == 0);
  FunctionExpr* fn = r->def("unbox")->fn;
  auto* box = static_cast<NamedType*>(fn->params[0]->annotation);
  REQUIRE(box->kind == TypeKind::Named);
  CHECK(box->adt == r->type("Box"));
  CHECK(box->param == nullptr);
  auto* b = static_cast<NamedType*>(box->args[0]);
  CHECK(b->param == fn->type_params[0]);
  auto* ret = static_cast<NamedType*>(fn->ret_type);
  CHECK(ret->param == fn->type_params[0]);
  // A constructor field refers to the type's own parameter.
  auto* field = static_cast<NamedType*>(r->type("Box")->ctors[0]->fields[0]);
  CHECK(field->param == r->type("Box")->type_params[0]);
}

TEST_CASE("resolve: the prelude when imported", "[resolve]") {
  auto r = resolve(
      "#[import = \"prelude\"]\n"
      "def @main(%l: List[int32]) -> Option[int32] {\n"
      "  match (@map(fn (%x: int32) { %x }, %l)) { Cons(%h, _) => Some(%h), Nil => None }\n"
      "}\n");
  INFO(r->codes());
  REQUIRE(r->diags.size() == 0);
  REQUIRE(r->result.prelude != nullptr);
  auto map = refs(*r, "main", "map");
  REQUIRE(map.size() == 1);
  REQUIRE(map[0]->global != nullptr);
  CHECK(map[0]->global->span.file != r->file);
  auto some = refs(*r, "main", "Some");
  REQUIRE(some.size() == 1);
  CHECK(some[0]->kind == ExprKind::CtorRef);
  CHECK(some[0]->ctor->owner->name == "Option");
}

TEST_CASE("resolve: without the import, prelude names are unknown", "[resolve]") {
  auto r = resolve("def @main(%l: List[int32]) { @length(%l) }\n");
  CHECK(r->codes() == "E0044,E0042");
  const Diagnostic& d = r->diag("E0042");
  bool import_help = false;
  for (const Help& h : d.helps)
    for (const TextEdit& e : h.edits)
      if (e.replacement == "#[import = \"prelude\"]\n") import_help = true;
  CHECK(import_help);
}

TEST_CASE("resolve: meta references against the metadata section", "[resolve]") {
  auto r = resolve(
      "def @main() { (meta[relay.Constant][0], meta[relay.Constant][1]) }\n"
      "#[metadata]\n"
      "{\"root\": 1, \"nodes\": [{\"type_key\": \"\"}, "
      "{\"type_key\": \"Map\", \"keys\": [\"relay.Constant\"], \"data\": [2]}, "
      "{\"type_key\": \"Array\", \"data\": [3]}, {\"type_key\": \"relay.Constant\"}], "
      "\"b64ndarrays\": []}\n");
  CHECK(r->codes() == "E0050");
  auto* t = as<TupleExpr>(r->def("main")->fn->body);
  REQUIRE(t != nullptr);
  auto* m0 = as<MetaRefExpr>(t->fields[0]);
  REQUIRE(m0 != nullptr);
  REQUIRE(m0->entry != nullptr);
  CHECK(m0->entry->node == 3);
  CHECK(as<MetaRefExpr>(t->fields[1])->entry == nullptr);
}

// ---------------------------------------------------------------------------------------
// Errors with suggestions and fixes

TEST_CASE("resolve: did you mean a local variable", "[resolve]") {
  auto r = resolve("def @main(%input: float32) { negative(%inptu) }\n");
  REQUIRE(r->codes() == "E0040");
  const Diagnostic& d = r->diag("E0040");
  CHECK(d.message == "cannot find local variable `%inptu` in this scope");
  CHECK(r->text(d.primary().span) == "%inptu");
  REQUIRE(d.helps.size() == 1);
  CHECK(d.helps[0].message == "a local variable with a similar name exists: `%input`");
  REQUIRE(d.helps[0].edits.size() == 1);
  CHECK(d.helps[0].edits[0].replacement == "%input");
  CHECK(r->text(d.helps[0].edits[0].span) == "%inptu");
}

TEST_CASE("resolve: did you mean a global function", "[resolve]") {
  auto r = resolve("def @conv_block() { () }\ndef @main() { @conv_blok() }\n");
  REQUIRE(r->codes() == "E0042");
  const Diagnostic& d = r->diag("E0042");
  REQUIRE(!d.helps.empty());
  REQUIRE(!d.helps[0].edits.empty());
  CHECK(d.helps[0].edits[0].replacement == "@conv_block");
  CHECK(r->text(d.helps[0].edits[0].span) == "@conv_blok");
}

TEST_CASE("resolve: did you mean an operator", "[resolve]") {
  auto r = resolve("def @main(%x: float32) { nn.rleu(%x) }\n");
  REQUIRE(r->codes() == "E0045");
  const Diagnostic& d = r->diag("E0045");
  REQUIRE(!d.helps.empty());
  REQUIRE(!d.helps[0].edits.empty());
  CHECK(d.helps[0].edits[0].replacement == "nn.relu");
  CHECK(r->text(d.helps[0].edits[0].span) == "nn.rleu");
}

TEST_CASE("resolve: did you mean a constructor, in a pattern", "[resolve]") {
  auto r = resolve("type S { Square(float32), Circle(float32) }\n"
                   "def @f(%s: S) { match (%s) { Sqare(%a) => %a, Circle(%r) => %r } }\n");
  REQUIRE(r->codes() == "E0043");
  const Diagnostic& d = r->diag("E0043");
  bool fix = false;
  for (const Help& h : d.helps)
    for (const TextEdit& e : h.edits)
      if (e.replacement == "Square" && r->text(e.span) == "Sqare") fix = true;
  CHECK(fix);
}

TEST_CASE("resolve: did you mean a type", "[resolve]") {
  auto r = resolve("type Pair[A] { MkPair(A, A) }\ndef @f(%p: Piar[int32], %x: flot32) { %p }\n");
  REQUIRE(r->codes() == "E0044,E0044");
  const auto& items = r->diags.items();
  REQUIRE(!items[0].helps.empty());
  CHECK(items[0].helps[0].edits[0].replacement == "Pair");
  REQUIRE(!items[1].helps.empty());
  CHECK(items[1].helps[0].edits[0].replacement == "float32");
}

TEST_CASE("resolve: %f where @f exists", "[resolve]") {
  auto r = resolve("def @f() { () }\ndef @main() { %f() }\n");
  REQUIRE(r->codes() == "E0040");
  bool fix = false;
  for (const Help& h : r->diag("E0040").helps)
    for (const TextEdit& e : h.edits)
      if (e.replacement == "@f") fix = true;
  CHECK(fix);
}

TEST_CASE("resolve: no suggestion for a name unlike anything in scope", "[resolve]") {
  auto r = resolve("def @main(%x: float32) { %completely_different }\n");
  REQUIRE(r->codes() == "E0040");
  CHECK(r->diag("E0040").helps.empty());
}

TEST_CASE("resolve: duplicates", "[resolve]") {
  CHECK(resolve("def @f() { () }\ndef @f() { () }\n")->codes() == "E0046");
  CHECK(resolve("type T { A }\ntype T { B }\n")->codes() == "E0047");
  CHECK(resolve("type T { A }\ntype U { A }\n")->codes() == "E0048");
  CHECK(resolve("def @f(%x, %x) { %x }\n")->codes() == "E0049");
  CHECK(resolve("type T[A, A] { C(A) }\n")->codes() == "E0054");
  CHECK(resolve("def @f[A, A](%x: A) { %x }\n")->codes() == "E0054");
  auto r = resolve("def @f() { () }\ndef @f() { () }\n");
  const Diagnostic& d = r->diag("E0046");
  REQUIRE(d.labels.size() == 2);
  CHECK(r->text(d.labels[0].span) == "@f");
  CHECK(d.labels[0].span.begin > d.labels[1].span.begin);  // primary: the redefinition
}

TEST_CASE("resolve: arity errors", "[resolve]") {
  CHECK(resolve("type P { Pt(int32, int32) }\ndef @f(%p: P) { match (%p) { Pt(%a) => %a } }\n")->codes() ==
        "E0051");
  CHECK(resolve("type B[A] { MkB(A) }\ndef @f(%b: B) { %b }\n")->codes() == "E0053");
  CHECK(resolve("type B[A] { MkB(A) }\ndef @f(%b: B[int32, int32]) { %b }\n")->codes() == "E0053");
  CHECK(resolve("def @f[T](%x: T[int32]) { %x }\n")->codes() == "E0053");
}

// ---------------------------------------------------------------------------------------
// Unused variables

TEST_CASE("resolve: unused let variable", "[resolve]") {
  auto r = resolve("def @main(%x: float32) { let %y = negative(%x); %x }\n");
  REQUIRE(r->codes() == "W0002");
  const Diagnostic& d = r->diag("W0002");
  CHECK(d.severity == Severity::Warning);
  CHECK(d.message == "unused variable `%y`");
  CHECK(r->text(d.primary().span) == "%y");
  CHECK((d.tags & kTagUnnecessary) != 0);
  REQUIRE(d.helps.size() == 1);
  REQUIRE(d.helps[0].edits.size() == 1);
  CHECK(d.helps[0].edits[0].replacement == "%_y");
  CHECK(r->diags.error_count() == 0);
}

TEST_CASE("resolve: what is not reported as unused", "[resolve]") {
  // Parameters, graph bindings, pattern variables, free variables, `_`-prefixed names.
  auto r = resolve(
      "type O { S(int32), N }\n"
      "def @main(%unused_param: int32, %o: O) {\n"
      "  free_var %fv: int32;\n"
      "  let %_quiet = 1;\n"
      "  %0 = 2;\n"
      "  match (%o) { S(%unused_pattern) => 0, N => 1 }\n"
      "}\n");
  INFO(r->codes());
  CHECK(r->diags.size() == 0);
}

TEST_CASE("resolve: unused variables in nested scopes", "[resolve]") {
  auto r = resolve(
      "def @main(%c: bool) {\n"
      "  let %f = fn () { let %inner = 1; 2 };\n"
      "  if (%c) { let %t = 3; 4 } else { %f() }\n"
      "}\n");
  REQUIRE(r->codes() == "W0002,W0002");
  CHECK(r->text(r->diags.items()[0].primary().span) == "%inner");
  CHECK(r->text(r->diags.items()[1].primary().span) == "%t");
}

TEST_CASE("resolve: warn_unused can be turned off", "[resolve]") {
  SourceManager sources;
  FileId id = sources.add("t.relay", "#[version = \"0.0.5\"]\ndef @main() { let %y = 1; 2 }\n");
  DiagnosticBag diags;
  auto m = parse_module(sources.get(id), diags);
  ResolveOptions options;
  options.warn_unused = false;
  resolve_names(*m, diags, options);
  CHECK(diags.size() == 0);
}
