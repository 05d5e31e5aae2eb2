// Completion at a cursor: locals in scope, globals, operators (snippets with their
// positional inputs and required attributes), attribute names inside an operator call,
// constructors, dtypes and keywords.
//
// It works on text that does not parse (the user is typing): the context comes from the
// text before the cursor (ide/context.h), the binders from the current check (the parser
// recovers), and a binder's type falls back to the last check without errors when the
// current one could not infer it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lang/types/database.h"

namespace relay::ide {

enum class CompletionKind { Local, Parameter, Global, Operator, Attribute, Constructor, DType, Keyword, Field };

struct CompletionItem {
  std::string label;
  CompletionKind kind;
  std::string detail;
  std::string insert_text;   // may be a snippet (`snippet`)
  bool snippet = false;
  bool deprecated = false;   // an operator that is not supported yet
  std::string sort_text;     // orders locals before globals before operators
  // What `resolve` needs to find the item's documentation again: "op", "global", "".
  std::string data_kind;
  std::string data_name;
};

struct CompletionResult {
  uint32_t replace_begin = 0;  // the typed word (with its sigil) the item replaces
  uint32_t replace_end = 0;    // the cursor
  std::vector<CompletionItem> items;
};

// An item that inserts its label. `rank` orders it before the label when sorting
// (`0` locals and dtypes, `1` globals, `2` constructors and operators, `4` keywords).
CompletionItem plain_item(std::string label, CompletionKind kind, std::string detail, std::string_view rank = "");

// `text` is the current document text (the check may be of it or older); `last_good` is
// the last check without errors, or null.
CompletionResult complete(const FileCheck& check, const FileCheck* last_good, std::string_view text,
                          uint32_t offset);

// Markdown documentation for a resolved item: an operator's doc and attrs schema, a
// global's type and doc comment (from `check`; none without one). Empty when there is none.
std::string completion_documentation(const FileCheck* check, std::string_view data_kind, std::string_view name);

// `nn.dense(${1:data}, ${2:weight}, units=${3})`: the positional inputs and every
// required attribute.
std::string operator_snippet(const OpInfo& op);
// Markdown: signature, doc line, attrs schema, support note (hover shares it).
std::string operator_documentation(const OpInfo& op);
// Markdown: `@name: TYPE` and the doc comment (hover shares it); `type` may be null.
std::string global_documentation(const FuncDef& def, Ty type);

}  // namespace relay::ide
