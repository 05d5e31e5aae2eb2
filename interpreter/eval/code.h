// The evaluator's compiled form of Relay functions.
//
// Before a function runs, its AST is compiled once into a tree of Nodes: variables
// become frame slot numbers (closure conversion decides which outer variables a
// function literal captures), operator calls get their kernel, checked attributes and
// inferred result type, and constructor calls their tag. The machine (machine.h) then
// walks Nodes on an explicit stack. Every Node keeps its source Expr, so spans, the
// debugger and observers see the program as written.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/eval/tier.h"
#include "interpreter/kernels/kernel.h"
#include "interpreter/value.h"
#include "lang/syntax/ast.h"
#include "lang/types/call_attrs.h"
#include "lang/types/type.h"

namespace relay::rt {

struct FunctionCode;

// A tensor region (tier.h's RegionInfo) of a block, as the machine runs it: it starts at
// the binding that points at it and ends before binding `end`; its inputs are read from
// and its outputs written to these slots of the current frame.
struct RegionCode {
  RegionInfo info;
  uint32_t end = 0;
  std::vector<uint32_t> input_slots, output_slots;
};

enum class NodeKind : uint8_t {
  Const,      // a literal or metadata tensor (`constant`)
  Local,      // frame slot `slot`
  Global,     // @name: a closure over `global`
  OpValue,    // an operator used as a value (not called)
  CtorValue,  // a constructor used as a value (not called)
  Tuple,
  GetItem,    // kids[0].index
  Lambda,     // a function literal: a closure capturing `captures`
  Call,       // a call of a closure: kids = args..., callee
  OpCall,     // a primitive call: kids = args
  CtorCall,   // kids = fields
  Block,      // bindings, then `result` in tail position
  If,         // kids = cond, then, else
  Match,      // kids[0] = scrutinee; clauses
  RefNew,
  RefRead,
  RefWrite,   // kids = ref, value
  Return,     // machine-internal: the end of a closure call (pops its frame)
};

struct PatternCode {
  PatternKind kind;
  uint32_t slot = 0;          // Var
  const CtorDef* ctor = nullptr;  // Ctor
  std::vector<PatternCode> fields;
};

struct Node {
  NodeKind kind;
  // What a debugger steps by at statement granularity: the value of a binding, the tail
  // of a block, a function's body, a branch of `if`, the body of a `match` clause (each
  // of these that is itself a block is not one: its own parts are).
  bool statement = false;
  const Expr* expr;
  uint32_t slot = 0;   // Local: slot; GetItem: field index
  std::vector<const Node*> kids;
  Value constant;                       // Const
  std::string error;                    // Const: why the constant could not be read
  const FuncDef* global = nullptr;      // Global
  const OpInfo* op = nullptr;           // OpValue, OpCall
  KernelFn kernel = nullptr;            // OpCall
  CallAttrs attrs;                      // OpCall
  Ty out_type = nullptr;                // OpCall: inferred result type when concrete
  const CtorDef* ctor = nullptr;        // CtorValue, CtorCall
  const FunctionCode* function = nullptr;  // Lambda
  std::vector<uint32_t> captures;       // Lambda: slots of the enclosing frame, in capture order
  struct Bind {
    const Binding* binding;
    int64_t slot;  // -1: evaluated for effect only
    const Node* value;
    const RegionCode* region = nullptr;  // a tensor region starting here (mixed mode)
  };
  std::vector<Bind> bindings;           // Block
  const Node* result = nullptr;         // Block
  struct Clause {
    PatternCode pattern;
    const Node* body;
  };
  std::vector<Clause> clauses;          // Match
  bool complete = true;                 // Match: `match` (true) or `match?`

  Node(NodeKind k, const Expr* e) : kind(k), expr(e) {}
};

// A compiled function. Its frame has `slots` values: the parameters first (slots
// 0..params-1), then captured values, locals and pattern variables wherever the
// compiler placed them.
struct FunctionCode {
  const FunctionExpr* fn = nullptr;
  const FuncDef* global = nullptr;  // the global definition it is the body of, if any
  std::string name;         // `@main`, `%f` (a let-bound function) or `fn` (anonymous)
  uint32_t params = 0;
  std::vector<uint32_t> capture_slots;  // where each captured value goes
  int64_t self_slot = -1;   // a let-bound recursive function sees itself here
  uint32_t slots = 0;
  std::vector<const VarDecl*> slot_vars;  // the binder of each slot (debuggers, observers)
  const Node* body = nullptr;
};

}  // namespace relay::rt
