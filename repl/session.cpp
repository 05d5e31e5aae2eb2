// The session engine's inputs: definitions, bindings and expressions (see session.h).
#include <algorithm>
#include <map>
#include <set>

#include "interpreter/eval/machine.h"
#include "interpreter/eval/run.h"
#include "interpreter/runtime/ndarray.h"
#include "interpreter/value_print.h"
#include "lang/base/render.h"
#include "lang/base/wrapped_text.h"
#include "lang/syntax/parser.h"
#include "ide/context.h"
#include "ide/highlight.h"
#include "lang/syntax/walk.h"
#include "repl/session_impl.h"

namespace relay::repl {

namespace {

constexpr const char* kSessionPath = "<session>";

bool is_error(const Diagnostic& d) { return d.severity == Severity::Error; }

// Where an item's text starts: its definition keyword, or the first of the `///` lines
// right above it.
uint32_t item_start(std::string_view text, uint32_t def_begin) {
  uint32_t line = def_begin;
  while (line > 0 && text[line - 1] != '\n') --line;
  for (uint32_t i = line; i < def_begin; ++i)
    if (text[i] != ' ' && text[i] != '\t') return def_begin;  // something else on its line
  uint32_t start = def_begin;
  while (line > 0) {
    uint32_t prev = line - 1;
    while (prev > 0 && text[prev - 1] != '\n') --prev;
    std::string_view l = text.substr(prev, line - 1 - prev);
    size_t first = l.find_first_not_of(" \t");
    if (first == std::string_view::npos || l.substr(first, 3) != "///") break;
    start = prev + static_cast<uint32_t>(first);
    line = prev;
  }
  return start;
}

// The globals each definition of `check` calls (by name).
std::map<std::string, std::set<std::string>> callees(const FileCheck& check) {
  std::map<std::string, std::set<std::string>> out;
  for (const auto& d : check.definitions) {
    auto& set = out["@" + std::string(d.def->name)];
    walk_expr(d.def->fn, [&](Expr* e) {
      if (e->kind == ExprKind::GlobalRef) set.insert("@" + std::string(static_cast<RefExpr*>(e)->name));
    });
  }
  return out;
}

// Whether `t` can be written as a result annotation: complete (no unknowns) and free
// of type parameters (which the definition would have to declare).
bool annotatable(Ty t) {
  if (!t) return false;
  switch (t->kind) {
    case TyKind::Tensor:
      for (const Dim& d : static_cast<const TensorTy*>(t)->shape)
        if (dim_has_hole(d)) return false;  // a size inference did not find
      return true;
    case TyKind::Tuple:
      for (Ty f : static_cast<const TupleTy*>(t)->fields)
        if (!annotatable(f)) return false;
      return true;
    case TyKind::Func: {
      auto* f = static_cast<const FuncTy*>(t);
      if (!f->type_params.empty() || !annotatable(f->ret)) return false;
      for (Ty p : f->params)
        if (!annotatable(p)) return false;
      return true;
    }
    case TyKind::Adt:
      for (Ty a : static_cast<const AdtTy*>(t)->args)
        if (!annotatable(a)) return false;
      return true;
    case TyKind::Ref:
      return annotatable(static_cast<const RefTy*>(t)->value);
    default:
      return false;  // type parameters, unknowns, errors
  }
}

// The name of the definition of `check` whose text holds real-file offset `offset`
// (empty when none).
std::string definition_holding(const FileCheck& check, uint32_t offset) {
  const CheckedDefinition* d = ide::definition_at(check, offset);
  if (!d || offset < d->chunk_offset + d->def->span.begin || offset > d->chunk_offset + d->def->span.end) return "";
  return std::string(d->def->name);
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? std::string(sep) : "") + parts[i];
  return s;
}

}  // namespace

std::map<std::string, std::string> global_type_map(const FileCheck& check) {
  std::map<std::string, std::string> types;
  for (const auto& d : check.definitions)
    if (d.def->name != kInputFunction && d.types) types["@" + std::string(d.def->name)] = type_to_string(d.types->type);
  return types;
}

ExecResult session_error(Span span, std::string message, std::string label) {
  ExecResult r;
  r.ok = false;
  r.outputs.push_back(error_output({make_diagnostic(DiagKind::SessionCommand, span, {std::move(message), std::move(label)})}));
  return r;
}

Session::Impl::Impl(SessionOptions o) : options(o) { accepted = check_text(module.build()); }

std::shared_ptr<const FileCheck> Session::Impl::check_text(const ModuleText& text) {
  db.set_file(kSessionPath, text.text);
  auto check = db.check(kSessionPath);
  // One thread sets and checks, so no newer revision can overtake this one.
  if (!check) throw std::logic_error("session check was cancelled");
  // Every check hands out new FuncDef objects: the JIT finds its code by content again.
  if (tier) tier->module_rechecked();
  for (const CheckedDefinition& d : check->definitions) {
    if (chunk_regions.count(d.chunk_file)) continue;  // a chunk's text, so its regions, never change
    uint32_t begin = d.chunk_offset;
    uint32_t end = begin + static_cast<uint32_t>(db.sources().get(d.chunk_file).text.size());
    ModuleText& mine = chunk_regions[d.chunk_file];
    for (const Region& r : text.regions)
      if (r.end > begin && r.begin < end) {
        uint32_t from = std::max(r.begin, begin);
        mine.regions.push_back(Region{from - begin, std::min(r.end, end) - begin,
                                      Origin{r.origin.file, r.origin.offset + (from - r.begin)}});
      }
  }
  return check;
}

FileId Session::Impl::add_input(std::string_view text) {
  return display.add("<input " + std::to_string(++inputs) + ">", std::string(text));
}

Span Session::Impl::display_span(Span s, const ModuleText& text, Span fallback) {
  if (auto chunk = chunk_regions.find(s.file); chunk != chunk_regions.end())
    return chunk->second.to_origin(s).value_or(fallback);
  if (accepted && s.file == accepted->file) {
    if (auto origin = text.to_origin(s)) return *origin;
    // Past the end of the input (the closing text the session added): an error there is
    // about what the input is missing at its end.
    if (!text.regions.empty() && s.begin >= text.tail_begin && s.begin >= text.regions.back().end) {
      const Region& last = text.regions.back();
      uint32_t end = last.origin.offset + (last.end - last.begin);
      return Span{last.origin.file, end, end};
    }
    return fallback;
  }
  auto it = foreign_files.find(s.file);
  if (it == foreign_files.end()) {
    // A file of the checker's own (the prelude): shown from a copy in the display sources.
    const SourceFile& f = db.sources().get(s.file);
    it = foreign_files.emplace(s.file, display.add(f.name, std::string(f.text))).first;
  }
  return Span{it->second, s.begin, s.end};
}

std::vector<Diagnostic> Session::Impl::to_display(const std::vector<Diagnostic>& diags, const ModuleText& text,
                                                  Span fallback, bool errors_only) {
  WrappedText wrapped;
  wrapped.to_user = [&](Span s) -> std::optional<Span> {
    Span f = db.to_file_span(s);
    if (accepted && f.file == accepted->file && !text.to_origin(f)) return std::nullopt;  // the session's text
    return display_span(s, text, fallback);
  };
  wrapped.place_generated = [&](Span s) { return display_span(s, text, fallback); };
  wrapped.past_end = [&](Span s) { return db.to_file_span(s).begin >= text.tail_begin; };
  wrapped.end_name = "the end of the input";
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : diags)
    if (!errors_only || is_error(d)) out.push_back(to_user_text(d, wrapped));
  return out;
}

std::vector<Diagnostic> Session::Impl::input_warnings(const std::vector<Diagnostic>& diags, const ModuleText& text,
                                                      FileId input) {
  std::vector<Diagnostic> warnings;
  for (const Diagnostic& d : diags) {
    if (is_error(d) || d.labels.empty()) continue;
    const Span at = db.to_file_span(d.primary().span);
    if (!accepted || at.file != accepted->file) continue;  // the prelude's
    const std::optional<Span> origin = text.to_origin(at);
    if (origin && origin->file == input) warnings.push_back(d);
  }
  return to_display(warnings, text, Span{input, 0, 0}, false);
}

ExecResult Session::Impl::define(FileId file, const std::string& loaded_from) {
  ExecResult result;
  const SourceFile& src = display.get(file);
  DiagnosticBag diags;
  ParseOptions po;
  po.require_version = false;
  auto parsed = parse_module(src, diags, po);
  if (diags.has_errors()) {
    diags.sort();
    std::vector<Diagnostic> errors;
    for (const auto& d : diags.items())
      if (is_error(d)) errors.push_back(d);
    result.ok = false;
    result.outputs.push_back(error_output(std::move(errors)));
    return result;
  }
  if (parsed->metadata)
    return session_error(parsed->metadata_span,
                         "a session cannot hold a `#[metadata]` section yet",
                         "run a file with metadata constants with `relay run`");

  SessionModule candidate = module;
  std::vector<std::string> added, replaced;
  std::set<std::string> seen;
  std::map<std::string, Span> name_spans;  // of this input's definitions
  for (const Definition& d : parsed->defs) {
    bool is_func = d.kind == Definition::Func;
    std::string name = is_func ? "@" + std::string(d.func->name) : std::string(d.type->name);
    Span span = is_func ? d.func->span : d.type->span;
    if (is_func && d.func->name == kInputFunction)
      return session_error(d.func->name_span, "`@" + std::string(kInputFunction) + "` is reserved by the session",
                           "choose another name");
    Span name_span = is_func ? d.func->name_span : d.type->name_span;
    if (!seen.insert(name).second)
      return session_error(name_span, "`" + name + "` is defined more than once in this input", "defined again here");
    name_spans[name] = name_span;
    SessionItem item;
    item.name = name;
    uint32_t start = item_start(src.text, span.begin);
    item.text = std::string(src.text.substr(start, span.end - start));
    item.origin = Origin{file, start};
    item.loaded_from = loaded_from;
    if (is_func && d.func->fn && !d.func->fn->ret_type && d.func->fn->body) {
      uint32_t brace = d.func->fn->body->span.begin;
      while (brace > start && src.text[brace] != '{') --brace;
      if (src.text[brace] == '{') item.body_brace = brace - start;
    }
    (candidate.put(std::move(item)) ? replaced : added).push_back(name);
  }
  // What calls a (re)defined function, directly or not, may infer a new result type:
  // its added annotation is worked out again.
  std::set<std::string> changed(seen.begin(), seen.end());
  auto calls = callees(*accepted);
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [caller, called] : calls)
      if (!changed.count(caller))
        for (const auto& c : called)
          if (changed.count(c)) {
            changed.insert(caller);
            grew = true;
            break;
          }
  }
  for (auto& item : candidate.items())
    if (changed.count(item.name)) item.annotation.clear();
  ModuleText text;
  auto check = annotate_and_check(candidate, &text);
  if (check->error_count() > 0) {
    result.ok = false;
    Output o = error_output(to_display(check->diagnostics, text, Span{file, 0, 0}, true));
    // Errors inside definitions this input did not write: a redefinition broke them.
    std::set<std::string> broken;
    for (const Diagnostic& d : check->diagnostics) {
      if (!is_error(d) || d.primary().span.file != check->file) continue;
      std::string holder = definition_holding(*check, d.primary().span.begin);
      if (!holder.empty() && !seen.count("@" + holder)) broken.insert("@" + holder);
    }
    if (!broken.empty() && !replaced.empty()) {
      Span at = name_spans[replaced.front()];
      Diagnostic why = make_diagnostic(DiagKind::RedefinitionBreaks, at,
                                       {join(replaced, ", "), join({broken.begin(), broken.end()}, ", ")});
      why.note("the errors below are in the definitions that depend on it; the session is unchanged");
      o.diagnostics.insert(o.diagnostics.begin(), std::move(why));
    }
    result.outputs.push_back(std::move(o));
    return result;
  }

  // Accepted: report what was defined, and what changed elsewhere.
  auto before = global_type_map(*accepted);
  auto after = global_type_map(*check);
  std::string report;
  using Fragment = Output::Fragment;
  std::vector<Fragment> fragments;
  // Appends a Relay piece of the echo and remembers where it is (for front ends' colours).
  auto piece = [&](std::string_view text, Fragment::Kind kind) {
    const uint32_t b = static_cast<uint32_t>(report.size());
    report += text;
    fragments.push_back(Fragment{b, static_cast<uint32_t>(report.size()), kind});
  };
  for (const Definition& d : parsed->defs) {
    if (d.kind == Definition::Type) {
      std::string name(d.type->name);
      bool re = std::find(replaced.begin(), replaced.end(), name) != replaced.end();
      std::vector<std::string> ctors;
      for (const CtorDef* c : d.type->ctors) ctors.push_back(std::string(c->name));
      report += (re ? "redefined type " : "defined type ") + name +
                (ctors.empty() ? "" : " (" + join(ctors, ", ") + ")") + "\n";
      continue;
    }
    std::string name = "@" + std::string(d.func->name);
    bool re = std::find(replaced.begin(), replaced.end(), name) != replaced.end();
    report += re ? "redefined " : "defined ";
    piece(name, Fragment::Kind::Global);
    report += ": ";
    piece(after[name], Fragment::Kind::Type);
    if (re && before[name] != after[name]) {
      report += "  (was ";
      piece(before[name], Fragment::Kind::Type);
      report += ")";
    }
    report += "\n";
  }
  if (!replaced.empty()) {
    // Callers of what was redefined were checked again: say so, with any new types.
    std::set<std::string> changed(replaced.begin(), replaced.end());
    std::vector<std::string> rechecked;
    for (const auto& [caller, calls] : callees(*check)) {
      if (seen.count(caller)) continue;
      for (const auto& c : calls)
        if (changed.count(c)) {
          rechecked.push_back(caller);
          break;
        }
    }
    for (size_t i = 0; i < rechecked.size(); ++i) {
      const std::string& caller = rechecked[i];
      report += i == 0 ? "re-checked " : "; ";
      piece(caller, Fragment::Kind::Global);
      if (before[caller] != after[caller]) {
        report += ": ";
        piece(after[caller], Fragment::Kind::Type);
        report += "  (was ";
        piece(before[caller], Fragment::Kind::Type);
        report += ")";
      }
    }
    if (!rechecked.empty()) report += "\n";
  }
  std::vector<Diagnostic> warnings = input_warnings(check->diagnostics, text, file);
  module = std::move(candidate);
  accepted = check;
  if (!warnings.empty()) result.outputs.push_back(error_output(std::move(warnings)));
  if (!report.empty()) report.pop_back();
  result.outputs.push_back(text_output(report));
  result.outputs.back().fragments = std::move(fragments);
  return result;
}

std::shared_ptr<const FileCheck> Session::Impl::annotate_and_check(SessionModule& m, ModuleText* text) {
  // Each round annotates at least one more function (a callee before its callers), so
  // the rounds are bounded by the module's size; the cap only guards against surprises.
  for (int round = 0;; ++round) {
    *text = m.build();
    auto check = check_text(*text);
    if (round == 64) return check;
    std::set<std::string> broken;  // functions with errors inside: not annotated from those
    for (const Diagnostic& d : check->diagnostics)
      if (is_error(d) && d.primary().span.file == check->file)
        broken.insert(definition_holding(*check, d.primary().span.begin));
    std::unordered_map<std::string, const CheckedDefinition*> by_name;
    for (const auto& d : check->definitions) by_name.emplace("@" + std::string(d.def->name), &d);
    bool added = false;
    for (auto& item : m.items()) {
      if (!item.body_brace || !item.annotation.empty()) continue;
      auto it = by_name.find(item.name);
      if (it == by_name.end() || !it->second->types || broken.count(item.name.substr(1))) continue;
      Ty t = it->second->types->type;
      if (!t || t->kind != TyKind::Func) continue;
      Ty ret = static_cast<const FuncTy*>(t)->ret;
      if (!annotatable(ret)) continue;
      item.annotation = "-> " + type_to_string(ret) + " ";
      added = true;
    }
    if (!added) return check;
  }
}

std::string Session::Impl::input_function(std::string_view expr, const std::vector<std::string>* binds,
                                          std::vector<Region>* regions, Origin origin) const {
  std::string text = "def @" + std::string(kInputFunction) + "(";
  for (size_t i = 0; i < bindings.size(); ++i)
    text += (i ? ", %" : "%") + bindings[i].name + ": " + bindings[i].type;
  text += ") {\n";
  Region r;
  r.begin = static_cast<uint32_t>(text.size());
  text += expr;
  r.end = static_cast<uint32_t>(text.size());
  r.origin = origin;
  regions->push_back(r);
  if (binds) {
    // The function returns what the bindings bound: `%w`, or `(%a, %b)`.
    text += "\n";
    if (binds->size() == 1) {
      text += "%" + binds->front();
    } else {
      text += "(";
      for (size_t i = 0; i < binds->size(); ++i) text += (i ? ", %" : "%") + (*binds)[i];
      text += ")";
    }
  }
  text += "\n}\n";
  return text;
}

std::optional<CheckedInput> Session::Impl::check_input(std::string_view expr, const std::vector<std::string>* binds,
                                                       Origin origin, ExecResult& result) {
  CheckedInput in;
  std::vector<Region> regions;
  std::string fn = input_function(expr, binds, &regions, origin);
  in.text = module.build(fn, regions);
  in.check = check_text(in.text);
  Span fallback{origin.file, origin.offset, origin.offset};
  if (in.check->error_count() > 0) {
    result.ok = false;
    // with the warnings about the input, which may say why (W0004: a `let` whose value
    // refers to the variable it defines)
    std::vector<Diagnostic> shown = to_display(in.check->diagnostics, in.text, fallback, true);
    for (Diagnostic& w : input_warnings(in.check->diagnostics, in.text, origin.file)) shown.push_back(std::move(w));
    result.outputs.push_back(error_output(std::move(shown)));
    return std::nullopt;
  }
  if (std::vector<Diagnostic> warnings = input_warnings(in.check->diagnostics, in.text, origin.file); !warnings.empty())
    result.outputs.push_back(error_output(std::move(warnings)));
  for (const auto& d : in.check->definitions)
    if (d.def->name == kInputFunction) in.def = &d;
  if (!in.def || !in.def->types) throw std::logic_error("the input function was not checked");
  Ty body = in.def->types->type_of(in.def->def->fn->body);
  in.type = body ? type_to_string(body) : "_";
  return in;
}

std::optional<rt::Value> Session::Impl::run_input(const CheckedInput& in, Origin origin, ExecResult& result,
                                                  uint64_t* steps) {
  // `:time` measures a plain run: only inputs whose steps are not counted are debugged.
  if (!steps && debug_hook) {
    std::optional<rt::Value> value;
    if (debug_input(in, origin, result, &value)) return value;
  }
  auto check = in.check;
  auto program = std::make_unique<rt::Program>(
      [check](const FuncDef* def) -> const InferredTypes* {
        for (const auto& d : check->definitions)
          if (d.def == def) return d.types.get();
        return nullptr;
      },
      nullptr);
  rt::RunOptions run;
  run.check_numerics = options.check_numerics;
  run_tier.inner = tier;
  run.tier = options.jit && tier ? &run_tier : nullptr;
  run.max_depth = options.max_depth;
  run.interrupt = interrupt;
  // The input's own function is the session's device: its stack frame is the input.
  run.entry_label = "<input>";
  run.fallback_span = Span{origin.file, origin.offset, origin.offset};
  run.span_map = [&](Span s) { return display_span(s, in.text, run.fallback_span); };
  std::vector<rt::Value> args;
  for (const auto& b : bindings) args.push_back(b.value);
  rt::RunOutcome outcome = rt::run_function(*program, program->global(*in.def->def), std::move(args), run, display);
  if (steps) *steps = outcome.steps;
  if (outcome.value) {
    generations.push_back(Generation{check, std::move(program), nullptr});
    return std::move(outcome.value);
  }
  result.ok = false;
  result.interrupted = outcome.interrupted;
  result.outputs.push_back(error_output({std::move(*outcome.error)}));
  return std::nullopt;
}

ExecResult Session::Impl::evaluate(std::string_view expr, InputKind kind, Origin origin) {
  ExecResult result;
  std::optional<std::vector<std::string>> binds;
  // A binding input's variables stay in the session. Relay's `let` binds one variable;
  // anything else in its place is left to the parser to report (with an empty list the
  // function returns `()`, so the report is not followed by a missing-result error).
  if (kind == InputKind::Binding) binds = binding_names(expr).value_or(std::vector<std::string>{});
  auto in = check_input(expr, binds ? &*binds : nullptr, origin, result);
  if (!in) return result;
  auto value = run_input(*in, origin, result);
  if (!value) return result;
  if (!binds) {
    result.outputs.push_back(value_output(*value, in->type));
    return result;
  }
  // Each bound name keeps its value and type; a name bound again replaces the old one.
  const InferredTypes& types = *in->def->types;
  std::vector<std::string> field_types;
  if (binds->size() == 1) {
    field_types.push_back(in->type);
  } else {
    Ty t = types.type_of(in->def->def->fn->body);
    auto* tuple = t && t->kind == TyKind::Tuple ? static_cast<const TupleTy*>(t) : nullptr;
    for (size_t i = 0; i < binds->size(); ++i)
      field_types.push_back(tuple && i < tuple->fields.size() ? type_to_string(tuple->fields[i]) : "_");
  }
  std::string report;
  std::vector<Output::Fragment> fragments;
  for (size_t i = 0; i < binds->size(); ++i) {
    rt::Value v = binds->size() == 1 ? *value : value->tuple().fields[i];
    const std::string& name = (*binds)[i];
    auto it = std::find_if(bindings.begin(), bindings.end(), [&](const auto& b) { return b.name == name; });
    if (it != bindings.end()) bindings.erase(it);
    bindings.push_back(SessionBinding{name, v, field_types[i]});
    if (i) report += "\n";
    const uint32_t at = static_cast<uint32_t>(report.size());
    report += "%" + name;
    fragments.push_back({at, static_cast<uint32_t>(report.size()), Output::Fragment::Kind::Local});
    report += ": ";
    const uint32_t type_at = static_cast<uint32_t>(report.size());
    report += field_types[i];
    fragments.push_back({type_at, static_cast<uint32_t>(report.size()), Output::Fragment::Kind::Type});
  }
  result.outputs.push_back(text_output(report));
  result.outputs.back().fragments = std::move(fragments);
  return result;
}

// ---------------------------------------------------------------------------------------
// The public face.

Session::Session(SessionOptions options) : impl_(std::make_unique<Impl>(options)) {}
Session::~Session() = default;

ExecResult Session::execute(std::string_view input) {
  InputKind kind = classify(input);
  if (kind == InputKind::Empty) return {};
  FileId file = impl_->add_input(input);
  switch (kind) {
    case InputKind::Command:
      return impl_->command(*split_command(input), file);
    case InputKind::Definitions:
      return impl_->define(file, "");
    default:
      return impl_->evaluate(impl_->display.get(file).text, kind, Origin{file, 0});
  }
}

std::string Session::render(const std::vector<Diagnostic>& diagnostics, bool color, uint32_t max_line_width) const {
  std::string out;
  RenderOptions options{color, max_line_width};
  if (color) options.source_colors = ide::diagnostic_source_colors();  // the grammar's colours
  // A blank line after each diagnostic, as the command line prints them.
  for (const auto& d : diagnostics) out += render_diagnostic(d, impl_->display, options) + "\n";
  return out;
}

const SourceManager& Session::sources() const { return impl_->display; }
void Session::set_interrupt_flag(const std::atomic<bool>* flag) { impl_->interrupt = flag; }
void Session::set_tier(rt::TierUp* tier) { impl_->tier = tier; }

rt::CompiledCall* Session::Impl::SkipInputFunction::at_call(const FuncDef& def, std::span<const rt::Value> args) {
  return def.name == kInputFunction ? nullptr : inner->at_call(def, args);
}

rt::CompiledCall* Session::Impl::SkipInputFunction::at_region(const rt::RegionInfo& region,
                                                              std::span<const rt::Value> inputs) {
  const bool in_input = region.enclosing && region.enclosing->name == kInputFunction;
  return in_input ? nullptr : inner->at_region(region, inputs);
}

const InferredTypes* Session::types_of(const FuncDef* def) const {
  // The newest check first: a definition's types are those of the check that ran it.
  for (auto it = impl_->generations.rbegin(); it != impl_->generations.rend(); ++it)
    if (it->check)
      for (const auto& d : it->check->definitions)
        if (d.def == def) return d.types.get();
  if (impl_->accepted)
    for (const auto& d : impl_->accepted->definitions)
      if (d.def == def) return d.types.get();
  return nullptr;
}
const SessionOptions& Session::options() const { return impl_->options; }

}  // namespace relay::repl
