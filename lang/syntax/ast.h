// The Relay syntax tree, which is also the IR every later stage reads.
//
// Nodes live in the module's Arena and are trivially destructible; child lists are
// std::span views into the arena. Names are string_views into the source text (or into
// the arena when the parser had to build them). Every node has a Span.
//
// Name resolution (resolve.h) fills in the `decl`/`def`/`ctor`/`op` pointers of
// references and the `target` of named types; before it runs they are null.
//
// A sequence of bindings is one flat Block node (not nested Lets), so a 100,000-line
// printed model is a shallow tree and recursive passes cannot overflow the stack.
// The parser additionally bounds nesting depth (kMaxNestingDepth).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "lang/base/arena.h"
#include "lang/base/dtype.h"
#include "lang/base/source.h"

namespace relay {

struct Expr;
struct Type;
struct Pattern;
struct VarDecl;
struct FuncDef;
struct TypeDef;
struct CtorDef;
struct TypeParam;
struct AttrValue;
struct MetaEntry;
struct OpInfo;
struct DimExpr;

// Deeper nesting than this is reported (E0027) instead of recursed into.
constexpr int kMaxNestingDepth = 256;

// ---------------------------------------------------------------------------------------
// Attributes: `key=value` in calls, function attribute lists and parameter braces.

enum class AttrValueKind : uint8_t { Int, Float, Bool, String, Array, None, Expr };

struct AttrValue {
  AttrValueKind kind;
  DataType dtype{};           // Int/Float: the literal's dtype (suffix, or the default)
  bool parenthesized = false;
  Span span;
  int64_t int_value = 0;
  double float_value = 0;
  std::string_view text;      // String: the unescaped contents
  std::span<AttrValue*> items;  // Array
  Expr* expr = nullptr;       // Expr: any other atomic expression (incl. meta[...])
};

struct Attr {
  std::string_view key;  // dotted keys are joined with '.'
  Span key_span;
  AttrValue* value = nullptr;
};

// ---------------------------------------------------------------------------------------
// Types

enum class TypeKind : uint8_t { Error, Tensor, Tuple, Func, Named, Incomplete, Ref };

struct Type {
  TypeKind kind;
  Span span;
  explicit Type(TypeKind k, Span s) : kind(k), span(s) {}
};

enum class DimKind : uint8_t { Const, Any, Name, Meta, Add, Sub, Mul, Div, Error };

// A shape dimension: a constant, `?`, a symbolic name (extension), a meta reference,
// or arithmetic over those (extension).
struct DimExpr {
  DimKind kind;
  DataType dtype = DataType::int_(32);  // Const: i64 suffix gives int64
  bool parenthesized = false;
  Span span;
  int64_t value = 0;            // Const
  std::string_view name;        // Name
  std::string_view meta_key;    // Meta
  uint32_t meta_index = 0;      // Meta
  DimExpr* lhs = nullptr;       // Add/Sub/Mul/Div
  DimExpr* rhs = nullptr;
};

struct TensorType : Type {
  std::span<DimExpr*> shape;
  DataType dtype;
  std::string_view dtype_text;  // as written
  bool scalar_shorthand = false;  // written as `float32` rather than `Tensor[(), float32]`
  TensorType(Span s) : Type(TypeKind::Tensor, s) {}
};

struct TupleType : Type {
  std::span<Type*> fields;
  TupleType(Span s) : Type(TypeKind::Tuple, s) {}
};

struct FuncType : Type {
  std::span<TypeParam*> type_params;  // extension: `fn [A](A) -> A`
  std::span<Type*> params;
  Type* ret = nullptr;
  FuncType(Span s) : Type(TypeKind::Func, s) {}
};

// An identifier in type position: a type parameter, or an ADT applied to arguments.
struct NamedType : Type {
  std::string_view name;
  std::span<Type*> args;
  bool has_brackets = false;     // `Storage[]` vs `Storage`
  TypeParam* param = nullptr;    // resolved: a type parameter in scope
  TypeDef* adt = nullptr;        // resolved: an ADT
  NamedType(Span s) : Type(TypeKind::Named, s) {}
};

struct RefType : Type {  // extension: `ref(T)`, as TVM prints reference types
  Type* value = nullptr;
  RefType(Span s) : Type(TypeKind::Ref, s) {}
};

struct TypeParam {
  std::string_view name;
  Span span;
};

// ---------------------------------------------------------------------------------------
// Expressions

enum class ExprKind : uint8_t {
  Error,
  Constant,
  Tuple,
  LocalRef,   // %x or %0
  GlobalRef,  // @f
  Ident,      // an identifier before resolution: becomes OpRef or CtorRef
  OpRef,      // nn.conv2d
  CtorRef,    // Cons
  MetaRef,    // meta[relay.Constant][0]
  Function,
  Call,
  Block,      // bindings; result
  If,
  Match,
  TupleGetItem,
  RefCreate,
  RefRead,
  RefWrite,
};

enum ExprFlags : uint8_t {
  kExprParenthesized = 1,  // written inside ( ) (grouping only)
  kExprBraced = 2,         // written inside { } (a scope)
};

struct Expr {
  ExprKind kind;
  uint8_t flags = 0;
  Span span;
  explicit Expr(ExprKind k, Span s) : kind(k), span(s) {}
  bool parenthesized() const { return flags & kExprParenthesized; }
  bool braced() const { return flags & kExprBraced; }
};

struct ErrorExpr : Expr {
  ErrorExpr(Span s) : Expr(ExprKind::Error, s) {}
};

// Scalar literal.
struct ConstantExpr : Expr {
  DataType dtype;
  bool has_suffix = false;  // `1f`, `2i64`; false for `1`, `1.5` (extension), True/False
  int64_t int_value = 0;    // Int/UInt/Bool
  double float_value = 0;   // Float
  ConstantExpr(Span s) : Expr(ExprKind::Constant, s) {}
};

struct TupleExpr : Expr {
  std::span<Expr*> fields;
  TupleExpr(Span s) : Expr(ExprKind::Tuple, s) {}
};

// %x, %0, @f, an identifier, an operator or a constructor. `target` is filled in by
// name resolution according to `kind`.
struct RefExpr : Expr {
  std::string_view name;  // without the sigil: "x", "0", "f", "nn.conv2d", "Cons"
  VarDecl* decl = nullptr;       // LocalRef
  FuncDef* global = nullptr;     // GlobalRef
  CtorDef* ctor = nullptr;       // CtorRef
  const OpInfo* op = nullptr;    // OpRef
  bool is_graph = false;         // LocalRef written %N
  RefExpr(ExprKind k, Span s) : Expr(k, s) {}
};

struct MetaRefExpr : Expr {
  std::string_view type_key;
  uint32_t index = 0;
  const MetaEntry* entry = nullptr;  // resolved against the module's metadata
  MetaRefExpr(Span s) : Expr(ExprKind::MetaRef, s) {}
};

enum class VarKind : uint8_t { Param, Let, Graph, Pattern, FreeVar };

// A variable binder. References point here; identity (not name) is what matters.
struct VarDecl {
  std::string_view name;  // without '%'
  Span span;              // the name at the binding site
  VarKind kind;
  Type* annotation = nullptr;     // null when absent (or written `_`)
  std::span<Attr> attrs;          // `%x {virtual_device=...}`
  uint32_t use_count = 0;         // filled by name resolution
};

struct FunctionExpr : Expr {
  std::span<TypeParam*> type_params;
  std::span<VarDecl*> params;
  std::span<Attr> attrs;  // function attributes, e.g. Primitive=1
  Type* ret_type = nullptr;
  Expr* body = nullptr;
  FunctionExpr(Span s) : Expr(ExprKind::Function, s) {}
};

enum class CallSyntax : uint8_t { Normal, Infix, UnaryMinus };

struct CallExpr : Expr {
  Expr* callee = nullptr;
  std::span<Expr*> args;
  std::span<Attr> attrs;
  MetaRefExpr* attrs_meta = nullptr;  // `f(x, meta[relay.attrs.X][0])`
  CallSyntax syntax = CallSyntax::Normal;
  Span callee_span;  // Infix/UnaryMinus: the operator token
  CallExpr(Span s) : Expr(ExprKind::Call, s) {}
};

enum class BindingKind : uint8_t {
  Let,      // let %x: T = value;
  Graph,    // %0 = value;
  Sequence, // value;   (evaluated for effect, TVM: Let with an empty var)
  FreeVar,  // free_var %x: T;
};

struct Binding {
  BindingKind kind;
  Span span;             // the whole binding including ';'
  VarDecl* var = nullptr;  // null for Sequence
  Expr* value = nullptr;   // null for FreeVar
};

// `b1; b2; ...; result`. A function body, `{ }` block, branch or clause body is a
// Block only when it has bindings; otherwise it is the result expression itself.
struct BlockExpr : Expr {
  std::span<Binding> bindings;
  Expr* result = nullptr;
  BlockExpr(Span s) : Expr(ExprKind::Block, s) {}
};

struct IfExpr : Expr {
  Expr* cond = nullptr;
  Expr* then_branch = nullptr;
  Expr* else_branch = nullptr;
  IfExpr(Span s) : Expr(ExprKind::If, s) {}
};

enum class PatternKind : uint8_t { Wildcard, Var, Ctor, Tuple, Error };

struct Pattern {
  PatternKind kind;
  Span span;
  VarDecl* var = nullptr;              // Var
  std::string_view ctor_name;          // Ctor
  CtorDef* ctor = nullptr;             // Ctor, resolved
  bool has_parens = false;             // Ctor: `Nil()` vs `Nil`
  std::span<Pattern*> fields;          // Ctor, Tuple
};

struct Clause {
  Pattern* pattern = nullptr;
  Expr* body = nullptr;
  Span span;
};

struct MatchExpr : Expr {
  Expr* scrutinee = nullptr;
  std::span<Clause> clauses;
  bool complete = true;  // `match` (true) vs `match?` (false)
  MatchExpr(Span s) : Expr(ExprKind::Match, s) {}
};

struct TupleGetItemExpr : Expr {
  Expr* tuple = nullptr;
  uint32_t index = 0;
  Span index_span;
  TupleGetItemExpr(Span s) : Expr(ExprKind::TupleGetItem, s) {}
};

struct RefCreateExpr : Expr {
  Expr* value = nullptr;
  RefCreateExpr(Span s) : Expr(ExprKind::RefCreate, s) {}
};
struct RefReadExpr : Expr {
  Expr* ref = nullptr;
  RefReadExpr(Span s) : Expr(ExprKind::RefRead, s) {}
};
struct RefWriteExpr : Expr {
  Expr* ref = nullptr;
  Expr* value = nullptr;
  RefWriteExpr(Span s) : Expr(ExprKind::RefWrite, s) {}
};

// Checked downcast helpers: `as<CallExpr>(e)` (asserts the kind in debug builds).
template <class T> struct KindOf;
template <> struct KindOf<ConstantExpr> { static constexpr ExprKind value = ExprKind::Constant; };
template <> struct KindOf<TupleExpr> { static constexpr ExprKind value = ExprKind::Tuple; };
template <> struct KindOf<MetaRefExpr> { static constexpr ExprKind value = ExprKind::MetaRef; };
template <> struct KindOf<FunctionExpr> { static constexpr ExprKind value = ExprKind::Function; };
template <> struct KindOf<CallExpr> { static constexpr ExprKind value = ExprKind::Call; };
template <> struct KindOf<BlockExpr> { static constexpr ExprKind value = ExprKind::Block; };
template <> struct KindOf<IfExpr> { static constexpr ExprKind value = ExprKind::If; };
template <> struct KindOf<MatchExpr> { static constexpr ExprKind value = ExprKind::Match; };
template <> struct KindOf<TupleGetItemExpr> { static constexpr ExprKind value = ExprKind::TupleGetItem; };
template <> struct KindOf<RefCreateExpr> { static constexpr ExprKind value = ExprKind::RefCreate; };
template <> struct KindOf<RefReadExpr> { static constexpr ExprKind value = ExprKind::RefRead; };
template <> struct KindOf<RefWriteExpr> { static constexpr ExprKind value = ExprKind::RefWrite; };

template <class T>
T* as(Expr* e) {
  return e && e->kind == KindOf<T>::value ? static_cast<T*>(e) : nullptr;
}
template <class T>
const T* as(const Expr* e) {
  return e && e->kind == KindOf<T>::value ? static_cast<const T*>(e) : nullptr;
}
inline bool is_ref(const Expr* e) {
  return e->kind == ExprKind::LocalRef || e->kind == ExprKind::GlobalRef ||
         e->kind == ExprKind::Ident || e->kind == ExprKind::OpRef || e->kind == ExprKind::CtorRef;
}
inline RefExpr* as_ref(Expr* e) { return e && is_ref(e) ? static_cast<RefExpr*>(e) : nullptr; }
inline const RefExpr* as_ref(const Expr* e) {
  return e && is_ref(e) ? static_cast<const RefExpr*>(e) : nullptr;
}

// ---------------------------------------------------------------------------------------
// Definitions and the module

struct CtorDef {
  std::string_view name;
  Span span;  // the whole constructor
  Span name_span;
  std::span<Type*> fields;
  bool has_parens = false;
  TypeDef* owner = nullptr;
  uint32_t tag = 0;  // position within its type
};

struct TypeDef {
  std::string_view name;
  Span span;
  Span name_span;
  std::span<TypeParam*> type_params;
  std::span<CtorDef*> ctors;
  bool is_extern = false;
  bool has_braces = false;
  std::string_view doc;  // `///` lines, markers stripped, joined with '\n'
};

struct FuncDef {
  std::string_view name;  // without '@'
  Span span;
  Span name_span;
  FunctionExpr* fn = nullptr;
  std::string_view doc;
};

enum class CommentKind : uint8_t { Line, Block, Doc };

struct Comment {
  CommentKind kind;
  Span span;  // includes the markers
};

// One `#[metadata]` entry: node `index` of the TVM JSON graph, listed under `type_key`.
struct MetaEntry {
  std::string_view type_key;
  uint32_t index = 0;    // position within its type key's array
  uint32_t node = 0;     // node index in the JSON `nodes` array
};

struct Definition {
  enum Kind : uint8_t { Func, Type } kind;
  FuncDef* func = nullptr;
  TypeDef* type = nullptr;
};

struct Metadata;  // metadata.h

struct Module {
  FileId file = 0;
  Arena arena;
  bool has_version = false;
  Span version_span;
  std::vector<Span> imports;            // `#[import = "prelude"]` attribute spans
  bool imports_prelude = false;
  std::vector<Definition> defs;         // in source order
  std::vector<Comment> comments;        // in source order
  std::shared_ptr<Metadata> metadata;   // null without a #[metadata] section
  Span metadata_span;
  // Present when the text is a lone expression rather than a module (parse_expression).
  Expr* expr = nullptr;
};

}  // namespace relay
