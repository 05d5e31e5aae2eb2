// A program ready to run: compiles each global on first use (code.h) and hands out the
// closures the machine calls. Name resolution has already linked every reference, so a
// program works over any set of resolved modules (a file, the prelude, a REPL session's
// growing module).
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>

#include "interpreter/eval/closure.h"
#include "interpreter/eval/code.h"
#include "lang/syntax/metadata.h"
#include "lang/types/infer.h"

namespace relay::rt {

struct RegionScan;

class Program {
 public:
  // The inferred types of a global (nullptr when unknown, e.g. the prelude): used to give
  // kernels their result types.
  using TypesLookup = std::function<const InferredTypes*(const FuncDef*)>;
  Program(TypesLookup types, const Metadata* metadata);
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  const FunctionCode& function(const FuncDef& def);
  // A closure of the global (no captures, so one value serves every reference).
  Value global(const FuncDef& def);
  // Compiles a lone expression as the body of a function without parameters.
  const FunctionCode& expression(const Expr& e, const InferredTypes* types);
  // Whether `code` was compiled by this program (and so lives as long as it does).
  bool owns(const FunctionCode* code) const {
    for (const FunctionCode& f : functions_)
      if (&f == code) return true;
    return false;
  }

 private:
  friend class Compiler;
  Node* node(NodeKind kind, const Expr* e) { return &nodes_.emplace_back(kind, e); }
  FunctionCode* new_function() { return &functions_.emplace_back(); }
  // Numbers the tensor regions found in `def` and links each to its first binding.
  void add_regions(const FuncDef& def, RegionScan& scan);

  TypesLookup types_;
  const Metadata* metadata_;
  std::deque<Node> nodes_;
  std::deque<FunctionCode> functions_;
  std::deque<RegionCode> regions_;
  std::unordered_map<const FuncDef*, FunctionCode*> compiled_;
  std::unordered_map<const FuncDef*, Value> globals_;
};

}  // namespace relay::rt
