// Where a program can stop: every statement of a file's functions (the compiled nodes
// the machine marks as statements: binding values, block tails, bodies, branches,
// clause bodies) and every call inside them, by line and column. Built from the
// compiled code, not from a second walk of the syntax tree, so a breakpoint is only
// ever verified where the machine will really stop.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "interpreter/eval/program.h"
#include "lang/base/source.h"

namespace relay::dbg {

// A 1-based line and column (UTF-16 code units, as the Debug Adapter Protocol counts).
struct Position {
  uint32_t line = 0, column = 0;
  uint32_t end_line = 0, end_column = 0;
};
Position position_of(const SourceFile& file, Span span);

struct StopPoint {
  const rt::Node* node;
  const FuncDef* global;   // the global definition holding it
  bool statement;          // false: a call inside a statement (a column breakpoint)
  uint32_t begin;          // byte offset
  Position pos;
};

class ProgramMap {
 public:
  // Compiles every function of `module` (in `program`) and indexes its stop points.
  ProgramMap(rt::Program& program, const Module& module, const SourceFile& file);

  // Stop points starting on `line`, in column order.
  std::vector<const StopPoint*> at_line(uint32_t line) const;
  // The first line at or after `line` where a statement starts, or 0 when none.
  uint32_t next_statement_line(uint32_t line) const;
  // Every stop point starting in lines [line, end_line].
  std::vector<const StopPoint*> in_lines(uint32_t line, uint32_t end_line) const;
  // The global definition whose body holds byte `offset`, or null.
  const FuncDef* global_at(uint32_t offset) const;

 private:
  void index(const rt::Node* root, const FuncDef* global, const SourceFile& file);
  std::vector<StopPoint> points_;             // sorted by (line, column)
  std::multimap<uint32_t, size_t> by_line_;   // line -> index in points_
  std::vector<const FuncDef*> globals_;
};

}  // namespace relay::dbg
