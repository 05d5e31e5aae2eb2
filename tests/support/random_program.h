// A seeded generator of random, well-formed Relay modules (text), for round-trip and
// formatter tests.
//
// The programs parse and resolve without diagnostics (with unused-variable warnings
// off): every name is bound, constructor patterns have the right arity, types are
// applied to the right number of arguments. They are not type correct. They cover ADT
// definitions (with type parameters, recursive fields, `extern type`), definitions with
// type parameters and function attributes, `let` (annotated, recursive), graph
// bindings, sequencing, `free_var`, `{ }` and parenthesised blocks, `if`, `match` and
// `match?` with nested constructor / tuple / variable / wildcard patterns, tuples and
// projections, references, `fn` literals, operator / global / local / constructor
// calls with attributes of every value form, infix operators with and without
// redundant parentheses, unary minus, literals of every suffix, and every type form
// including symbolic shape dimensions, `ref(T)` and polymorphic function types.
#pragma once

#include <cstdint>
#include <string>

namespace relay::testing {

struct RandomProgramOptions {
  int max_defs = 4;        // function definitions (plus 0-2 ADTs)
  int max_depth = 4;       // expression nesting
  // Irregular layout: random spaces and newlines between tokens, redundant parentheses.
  bool messy_layout = false;
  // Insert comments (`/* cN */`, `// cN`) between tokens; N counts up from 0 in text
  // order, so a test can check that all of them survive in order.
  bool comments = false;
};

std::string random_program(uint64_t seed, const RandomProgramOptions& options = {});

}  // namespace relay::testing
