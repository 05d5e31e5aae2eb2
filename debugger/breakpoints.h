// Breakpoint records and the small languages users type into them: hit conditions
// (`5` or `==5` stop on the fifth hit only, `>=5` from the fifth on, `%5` on every
// fifth) and log messages (`x = {%x}`: each `{expr}` is a Relay expression whose value is
// written as a one-line summary; `{{` and `}}` are literal braces).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "debugger/expression.h"
#include "debugger/program_map.h"

namespace relay::dbg {

struct HitCondition {
  enum class Op : uint8_t { Equal, AtLeast, Every } op = Op::Equal;
  uint64_t n = 1;
  bool matches(uint64_t hits) const;
};
// Parses `N`, `==N`, `>=N`, `%N` (spaces allowed); nullopt with `error` set otherwise.
std::optional<HitCondition> parse_hit_condition(std::string_view text, std::string* error);

// A log message cut into literal text and `{expression}` holes.
struct LogTemplate {
  struct Part {
    bool expression;
    std::string text;  // literal text, or the expression's source
  };
  std::vector<Part> parts;
};
std::optional<LogTemplate> parse_log_message(std::string_view text, std::string* error);

// What a user asked for and what came of it.
struct Breakpoint {
  int id = 0;
  enum class Kind : uint8_t { Line, Global, Operator } kind = Kind::Line;
  // Line: where it was resolved (the stop points it applies to).
  std::vector<const StopPoint*> points;
  const FuncDef* global = nullptr;  // Global
  std::string op_name;              // Operator
  bool verified = false;
  std::string message;              // why not verified, or where it moved
  std::optional<Position> pos;
  // The condition's and the log message's compiled expressions (null when absent).
  std::shared_ptr<const CompiledExpression> condition;
  std::optional<HitCondition> hit_condition;
  std::optional<LogTemplate> log;
  std::vector<std::shared_ptr<const CompiledExpression>> log_parts;  // one per expression part
  uint64_t hits = 0;
};

}  // namespace relay::dbg
