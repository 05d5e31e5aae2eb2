// Compatibility with TVM's own type inference: every `/* ty=T */` comment that TVM 0.14
// printed (after InferType) must equal the type our checker infers for the expression or
// binder it annotates. Runs over the shared TVM corpus (when present), the standard
// models of tests/models, and the TVM-style programs of tests/corpus and examples.
//
// A comment annotates the expression whose span ends right before it (only whitespace
// between; the outermost one when several end there), or, for `%x: T /* ty=T */`
// (parameters and let binders), the binder whose annotation ends there.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lang/syntax/frontend.h"
#include "lang/types/check_module.h"
#include "lang/types/type.h"

namespace fs = std::filesystem;
using namespace relay;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> relay_files(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".relay") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Every expression and binder of a tree (a test helper: recursive, the corpus is shallow
// because binding sequences are flat blocks).
struct Nodes {
  std::vector<const Expr*> exprs;
  std::vector<const VarDecl*> vars;
};

void collect_pattern(const Pattern* p, Nodes& out) {
  if (!p) return;
  if (p->kind == PatternKind::Var && p->var) out.vars.push_back(p->var);
  for (const Pattern* f : p->fields) collect_pattern(f, out);
}

void collect(const Expr* e, Nodes& out) {
  if (!e) return;
  out.exprs.push_back(e);
  switch (e->kind) {
    case ExprKind::Tuple:
      for (const Expr* f : static_cast<const TupleExpr*>(e)->fields) collect(f, out);
      break;
    case ExprKind::Function: {
      auto* fn = static_cast<const FunctionExpr*>(e);
      for (const VarDecl* p : fn->params) out.vars.push_back(p);
      collect(fn->body, out);
      break;
    }
    case ExprKind::Call: {
      auto* c = static_cast<const CallExpr*>(e);
      collect(c->callee, out);
      for (const Expr* a : c->args) collect(a, out);
      break;
    }
    case ExprKind::Block: {
      auto* b = static_cast<const BlockExpr*>(e);
      for (const Binding& bind : b->bindings) {
        if (bind.var) out.vars.push_back(bind.var);
        collect(bind.value, out);
      }
      collect(b->result, out);
      break;
    }
    case ExprKind::If: {
      auto* i = static_cast<const IfExpr*>(e);
      collect(i->cond, out);
      collect(i->then_branch, out);
      collect(i->else_branch, out);
      break;
    }
    case ExprKind::Match: {
      auto* m = static_cast<const MatchExpr*>(e);
      collect(m->scrutinee, out);
      for (const Clause& c : m->clauses) {
        collect_pattern(c.pattern, out);
        collect(c.body, out);
      }
      break;
    }
    case ExprKind::TupleGetItem: collect(static_cast<const TupleGetItemExpr*>(e)->tuple, out); break;
    case ExprKind::RefCreate: collect(static_cast<const RefCreateExpr*>(e)->value, out); break;
    case ExprKind::RefRead: collect(static_cast<const RefReadExpr*>(e)->ref, out); break;
    case ExprKind::RefWrite:
      collect(static_cast<const RefWriteExpr*>(e)->ref, out);
      collect(static_cast<const RefWriteExpr*>(e)->value, out);
      break;
    default:
      break;
  }
}

struct FileResult {
  size_t checked = 0;
  size_t unmatched_comments = 0;  // `ty=` comments no node ends before
  size_t nodes = 0;               // expressions and binders of the file
  std::vector<std::string> untyped;  // nodes missing from the side table, or not ground
  std::vector<std::string> mismatches;
  std::string errors;  // diagnostics other than warnings
};

FileResult check_text(const fs::path& path, std::string text) {
  FileResult r;
  SourceManager sources;
  DiagnosticBag diags;
  FileId file = sources.add(path.string(), std::move(text));
  FrontendResult front = analyze_file(sources, file, diags);
  ModuleTypes types = check_module(*front.module, front.prelude.get(), diags);
  const SourceFile& src = sources.get(file);
  for (const Diagnostic& d : diags.items())
    if (d.severity == Severity::Error) r.errors += std::string(d.code()) + " " + d.message + "\n";

  // What ends where: position -> (type text, span size) of the outermost node ending there.
  struct Annotated {
    std::string type;
    uint32_t size = 0;
    bool is_binder = false;
  };
  std::map<uint32_t, Annotated> ends;
  auto offer = [&](uint32_t end, uint32_t size, std::string type, bool binder) {
    auto it = ends.find(end);
    // A binder's annotation wins over the type expression inside it (not an Expr anyway);
    // among expressions the outermost (largest) one is the annotated node.
    if (it == ends.end() || (!it->second.is_binder && (binder || size > it->second.size)))
      ends[end] = Annotated{std::move(type), size, binder};
  };
  for (const auto& [def, inferred] : types.defs) {
    Nodes nodes;
    collect(def->fn, nodes);
    for (const Expr* e : nodes.exprs) {
      Ty t = inferred.type_of(e);
      ++r.nodes;
      // An operator in call position has no type of its own (its call has one).
      bool op_callee = e->kind == ExprKind::OpRef;
      if (!t || (!op_callee && (!is_ground(t) || t->kind == TyKind::Error)))
        r.untyped.push_back("`" + std::string(src.slice(e->span).substr(0, 60)) + "` at line " +
                            std::to_string(src.lines.lookup(e->span.begin).line) + ": " +
                            (t ? type_to_string(t) : "missing"));
      offer(e->span.end, e->span.size(), t ? type_to_string(t) : "<missing from the side table>", false);
    }
    for (const VarDecl* v : nodes.vars) {
      Ty t = inferred.type_of(v);
      ++r.nodes;
      if (!t || !is_ground(t) || t->kind == TyKind::Error)
        r.untyped.push_back("%" + std::string(v->name) + " at line " +
                            std::to_string(src.lines.lookup(v->span.begin).line) + ": " +
                            (t ? type_to_string(t) : "missing"));
      std::string text = t ? type_to_string(t) : "<missing from the side table>";
      if (v->annotation) offer(v->annotation->span.end, v->annotation->span.size(), text, true);
      else offer(v->span.end, v->span.size(), text, true);
    }
  }

  for (const Comment& c : front.module->comments) {
    std::string_view text = src.slice(c.span);
    constexpr std::string_view kOpen = "/* ty=", kClose = " */";
    if (c.kind != CommentKind::Block || text.substr(0, kOpen.size()) != kOpen) continue;
    REQUIRE(text.size() >= kOpen.size() + kClose.size());
    std::string expected(text.substr(kOpen.size(), text.size() - kOpen.size() - kClose.size()));
    uint32_t pos = c.span.begin;
    while (pos > 0 && std::isspace(static_cast<unsigned char>(src.text[pos - 1]))) --pos;
    auto it = ends.find(pos);
    size_t line = src.lines.lookup(c.span.begin).line;
    if (it == ends.end()) {
      ++r.unmatched_comments;
      r.mismatches.push_back(path.filename().string() + ":" + std::to_string(line) +
                             ": no expression or binder ends before this comment");
      continue;
    }
    ++r.checked;
    if (it->second.type != expected)
      r.mismatches.push_back(path.filename().string() + ":" + std::to_string(line) + ": TVM says `" +
                             expected + "`, we infer `" + it->second.type + "`");
  }
  return r;
}

FileResult check_file(const fs::path& path) { return check_text(path, read_file(path)); }

void check_corpus(const std::vector<fs::path>& files, size_t min_checked) {
  size_t checked = 0, mismatches = 0;
  std::vector<std::string> shown;
  for (const fs::path& p : files) {
    FileResult r = check_file(p);
    INFO(p.filename().string() << " has errors:\n" << r.errors);
    CHECK(r.errors.empty());
    CHECK(r.unmatched_comments == 0);
    // The side table covers every expression and binder with a complete type.
    CHECK(r.nodes > 0);
    std::string untyped;
    for (size_t i = 0; i < r.untyped.size() && i < 5; ++i) untyped += r.untyped[i] + "\n";
    INFO(r.untyped.size() << " node(s) without a complete type:\n" << untyped);
    CHECK(r.untyped.empty());
    checked += r.checked;
    mismatches += r.mismatches.size();
    for (auto& m : r.mismatches)
      if (shown.size() < 10) shown.push_back(std::move(m));
  }
  std::string listing;
  for (const auto& s : shown) listing += s + "\n";
  INFO(mismatches << " mismatch(es) among " << checked << " comments; the first ones:\n" << listing);
  CHECK(mismatches == 0);
  // Guards against a vacuous pass (no files found, comments not recognised).
  CHECK(checked >= min_checked);
}

}  // namespace

TEST_CASE("every ty= comment of the standard models equals the inferred type", "[types][ty-comments]") {
  auto files = relay_files(fs::path(RELAY_SOURCE_DIR) / "tests" / "models");
  REQUIRE(files.size() >= 12);
  // The 12 models carry 3590 comments; most of them must be matched to a node.
  check_corpus(files, 3590);
}

TEST_CASE("every ty= comment of TVM's own printouts equals the inferred type", "[types][ty-comments]") {
  fs::path dir = fs::path(RELAY_SOURCE_DIR "/../shared/corpus/tvm-0.14");
  auto files = relay_files(dir);
  if (files.empty()) {
    WARN("no TVM corpus at " << dir.string() << "; skipped");
    return;
  }
  // mlp, resnet18_224, lstm, dqn: 446 comments.
  check_corpus(files, 446);
}

TEST_CASE("every ty= comment of the project's TVM-style programs equals the inferred type", "[types][ty-comments]") {
  // Written for this project in TVM's printed style: metadata constants, ADT modules.
  std::vector<fs::path> files;
  for (const char* dir : {"tests/corpus", "examples"})
    for (auto& p : relay_files(fs::path(RELAY_SOURCE_DIR) / dir)) files.push_back(p);
  REQUIRE(files.size() >= 8);
  check_corpus(files, 62);
}

TEST_CASE("the ty= comparison is not vacuous: a wrong comment is caught", "[types][ty-comments]") {
  // The same machinery over a text whose last comment is deliberately wrong.
  std::string head = "#[version = \"0.0.5\"]\n"
                     "def @main(%x: Tensor[(1, 4), float32] /* ty=Tensor[(1, 4), float32] */) {\n"
                     "  %0 = nn.relu(%x) /* ty=Tensor[(1, 4), float32] */;\n";
  std::string good = head + "  (%0, %x) /* ty=(Tensor[(1, 4), float32], Tensor[(1, 4), float32]) */\n}\n";
  std::string bad = head + "  (%0, %x) /* ty=(Tensor[(1, 4), float32], Tensor[(1, 5), float32]) */\n}\n";
  FileResult g = check_text("good.relay", good);
  CHECK(g.checked == 3);
  CHECK(g.mismatches.empty());
  FileResult b = check_text("bad.relay", bad);
  CHECK(b.checked == 3);
  REQUIRE(b.mismatches.size() == 1);
  CHECK(b.mismatches[0] ==
        "bad.relay:4: TVM says `(Tensor[(1, 4), float32], Tensor[(1, 5), float32])`, we infer "
        "`(Tensor[(1, 4), float32], Tensor[(1, 4), float32])`");
  // A parameter's and a let binder's comments are compared with the binder's type.
  FileResult p = check_text("param.relay",
                            "#[version = \"0.0.5\"]\n"
                            "def @main(%x: Tensor[(1, 4), float32] /* ty=Tensor[(1, 4), int32] */) {\n"
                            "  let %y: Tensor[(1, 4), float32] /* ty=float32 */ = %x;\n"
                            "  %y\n"
                            "}\n");
  CHECK(p.checked == 2);
  REQUIRE(p.mismatches.size() == 2);
  CHECK(p.mismatches[0] == "param.relay:2: TVM says `Tensor[(1, 4), int32]`, we infer `Tensor[(1, 4), float32]`");
  CHECK(p.mismatches[1] == "param.relay:3: TVM says `float32`, we infer `Tensor[(1, 4), float32]`");
}
