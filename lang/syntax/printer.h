// The Relay pretty printer: turns a syntax tree back into canonical Relay text.
//
// The output is text that TVM 0.14 can parse, except where the input itself used an
// extension (unary minus, symbolic dimensions, `ref(T)`, polymorphic function types).
// Layout is canonical: `#[version = "0.0.5"]` first, definitions in source order
// separated by one blank line, two-space indentation, one binding per line. Function
// headers longer than `max_width` put each parameter on its own line.
//
// Comments: when printing a module with its SourceFile and `comments` enabled, every
// comment of `Module::comments` appears exactly once in the output, in source order.
// Placement is a function of each comment's position relative to the nodes around it,
// so formatting is idempotent: print(parse(print(parse(x)))) == print(parse(x)).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lang/syntax/ast.h"

namespace relay {

struct PrintOptions {
  bool comments = true;   // reproduce the source comments (needs the SourceFile)
  int max_width = 100;    // function headers longer than this are broken up
  // When set, each bound value and each block result is followed by `/* ty=TEXT */`
  // with TEXT from this function (empty: no comment), the way TVM prints typed IR.
  std::function<std::string(const Expr*)> type_comment;
};

// Prints a whole module. `file` must be the source the module was parsed from; it
// supplies comment text and the verbatim metadata section.
std::string print_module(const Module& module, const SourceFile& file,
                         const PrintOptions& options = {});

// Prints a module without its source: no comments, no metadata section.
std::string print_module(const Module& module, const PrintOptions& options = {});

// Prints one expression (no version header). `file` and `comments` are optional; when
// both are given (and options.comments is set), comments that lie inside the
// expression's span are reproduced.
std::string print_expr(const Expr* expr, const PrintOptions& options = {},
                       const SourceFile* file = nullptr,
                       const std::vector<Comment>* comments = nullptr);

// Prints a function body as its lines, without braces: each binding on a line of its own,
// then the result (what `relay repl`'s `:ir` shows).
std::string print_body(const Expr* body, const PrintOptions& options = {});

// Prints a type on one line, e.g. `Tensor[(1, 10), float32]`, `fn (int32) -> int32`.
std::string print_type(const Type* type);

// Prints a shape dimension, e.g. `3`, `?`, `n * 2`.
std::string print_dim(const DimExpr* dim);

// Prints a pattern, e.g. `Cons(%h, _)`.
std::string print_pattern(const Pattern* pattern);

// Prints an attribute value as it appears after `key=`.
std::string print_attr_value(const AttrValue* value);

// Literal spellings shared with diagnostics: `1f`, `5i64`, `True`, `-inff`.
std::string format_float_literal(double value, DataType dtype);
std::string format_int_literal(int64_t value, DataType dtype);
std::string format_constant(const ConstantExpr* c);

}  // namespace relay
