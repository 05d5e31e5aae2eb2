#include "debugger/expression.h"

#include <algorithm>
#include <set>

#include "lang/base/render.h"
#include "lang/base/wrapped_text.h"
#include "lang/syntax/lexer.h"
#include "lang/syntax/parser.h"
#include "lang/syntax/resolve.h"
#include "lang/types/env.h"
#include "lang/types/infer.h"

namespace relay::dbg {

namespace {

constexpr std::string_view kWrapper = "__debug_expression";

// The errors about a wrapper (file `wrapper`, whose bytes [begin, begin + text.size())
// are the user's `text`) rendered against the user's text alone, as a file named
// `origin`: the header and the closing lines are the adapter's, not something to show.
std::string render_errors(const DiagnosticBag& diags, SourceManager& sources, FileId wrapper, uint32_t begin,
                          std::string_view text, std::string_view origin) {
  const auto shown_file = sources.add_shared(std::string(origin), std::string(text));  // for rendering only
  const FileId shown = shown_file->id;
  const uint32_t end = begin + static_cast<uint32_t>(text.size());
  WrappedText wrapped;
  wrapped.to_user = [&](Span s) -> std::optional<Span> {
    if (s.file != wrapper) return s;
    if (s.begin < begin || s.end > end) return std::nullopt;
    return Span{shown, s.begin - begin, s.end - begin};
  };
  wrapped.place_generated = [&](Span s) {  // the header: the text's start; the closing lines: its end
    auto place = [&](uint32_t at) { return std::clamp(at, begin, end) - begin; };
    return Span{shown, place(s.begin), place(s.end)};
  };
  wrapped.past_end = [&](Span s) { return s.begin >= end; };
  wrapped.end_name = "the end of the expression";
  std::string out;
  for (const Diagnostic& d : diags.items())
    if (d.severity == Severity::Error) out += render_diagnostic(to_user_text(d, wrapped), sources, RenderOptions{false});
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

bool graph_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Stops the run at the first reference write (the machine pauses before it).
struct PurityGuard : rt::Observer {
  bool violated = false;
  void before(rt::Machine& m, const rt::Node& n) override {
    if (n.kind == rt::NodeKind::RefWrite) {
      violated = true;
      m.request_pause();
    }
  }
};

}  // namespace

std::vector<std::string> mentioned_locals(std::string_view text) {
  SourceFile file(0, "<expression>", std::string(text));
  DiagnosticBag ignored;
  Lexer lexer(file, ignored);
  std::set<std::string> names;
  for (Token t = lexer.next(); t.kind != Tok::Eof; t = lexer.next())
    if (t.kind == Tok::Local || t.kind == Tok::Graph) names.insert(std::string(text.substr(t.begin + 1, t.end - t.begin - 1)));
  return {names.begin(), names.end()};
}

ExpressionCompiler::ExpressionCompiler(SourceManager& sources, const rt::LoadedProgram& program)
    : sources_(sources), program_(program) {}

std::shared_ptr<const CompiledExpression> ExpressionCompiler::compile(std::string_view text,
                                                                      std::span<const EnvVar> env,
                                                                      std::string_view origin, std::string* error) {
  auto out = std::make_shared<CompiledExpression>();
  // Only the variables the text mentions become parameters: a condition in a hot
  // function then costs what it reads, not the size of the frame.
  std::string header = "#[version = \"0.0.5\"]\ndef @" + std::string(kWrapper) + "(";
  std::string rebind;
  bool first = true;
  for (const std::string& name : mentioned_locals(text)) {
    const EnvVar* var = nullptr;
    for (const EnvVar& v : env)
      if (v.decl->name == name) var = &v;  // the last one: inner binders shadow outer ones
    if (!var) continue;  // unknown: resolution reports it, with suggestions
    std::string param = graph_name(name) ? "__v" + name : name;
    if (graph_name(name)) rebind += "  %" + name + " = %" + param + ";\n";
    header += (first ? "%" : ", %") + param + (var->type.empty() ? "" : ": " + var->type);
    first = false;
    out->params.push_back(var->decl);
  }
  std::string wrapper = header + ") {\n" + rebind + std::string(text) + "\n}\n";
  const uint32_t text_begin = static_cast<uint32_t>(header.size() + 3 + rebind.size());
  out->wrapper_source = sources_.add_shared("<" + std::string(origin) + " wrapper>", std::move(wrapper));
  const FileId id = out->wrapper_source->id;
  auto errors = [&](const DiagnosticBag& diags) {
    return render_errors(diags, sources_, id, text_begin, text, "<" + std::string(origin) + ">");
  };
  DiagnosticBag diags;
  out->module = parse_module(*out->wrapper_source, diags);
  std::vector<const Module*> imports{program_.front.module.get()};
  if (program_.front.prelude) imports.push_back(program_.front.prelude.get());
  ResolveOptions resolve;
  resolve.imports = imports;
  resolve.warn_unused = false;
  resolve_names(*out->module, diags, resolve);
  for (const Definition& d : out->module->defs)
    if (d.kind == Definition::Func && d.func->name == kWrapper) out->def = d.func;
  if (diags.error_count() == 0 && (!out->def || out->module->defs.size() != 1))
    diags.emit(DiagKind::RuntimeFailure, Span{id, 0, 0}, {"expected one expression", "here"});
  if (diags.error_count() > 0) {
    *error = errors(diags);
    return nullptr;
  }
  ModuleEnv check_env(*out->module, imports);
  out->types = std::make_unique<InferredTypes>(infer_definition(*out->def, check_env));
  for (Diagnostic& d : out->types->diagnostics) diags.add(std::move(d));
  out->types->diagnostics.clear();
  if (diags.error_count() > 0) {
    *error = errors(diags);
    return nullptr;
  }
  Ty t = out->types->type_of(out->def->fn->body);
  out->type = t ? type_to_string(t) : "";
  const InferredTypes* own = out->types.get();
  const FuncDef* def = out->def;
  const ModuleTypes* program_types = &program_.types;
  out->program = std::make_unique<rt::Program>(
      [own, def, program_types](const FuncDef* d) { return d == def ? own : program_types->find(d); },
      program_.front.module->metadata.get());
  return out;
}

EvalResult ExpressionCompiler::run(const CompiledExpression& e, std::span<const rt::Value> args, bool pure,
                                   uint64_t max_steps, const std::atomic<bool>* interrupt) {
  EvalResult out;
  if (!e.machine) e.machine = std::make_unique<rt::Machine>(*e.program);
  rt::Machine& machine = *e.machine;
  machine.set_interrupt_flag(interrupt);
  PurityGuard guard;
  if (pure) machine.add_observer(&guard);
  struct Detach {  // the guard lives on this stack frame only
    rt::Machine& m;
    PurityGuard* g;
    ~Detach() { m.remove_observer(g); }
  } detach{machine, &guard};
  try {
    machine.start_call(e.program->global(*e.def), std::vector<rt::Value>(args.begin(), args.end()));
    switch (machine.run_until_pause(max_steps)) {
      case rt::Machine::RunStatus::Done: out.value = machine.result(); break;
      case rt::Machine::RunStatus::Paused:
        out.error = "this expression writes a reference (`:=`); watch and hover expressions must not change the program";
        break;
      case rt::Machine::RunStatus::Budget:
        out.error = "stopped after " + std::to_string(max_steps) + " evaluation steps (does it terminate?)";
        break;
    }
  } catch (const rt::EvalError& err) {
    out.error = err.what();
  } catch (const std::exception& err) {
    out.error = err.what();
  }
  return out;
}

}  // namespace relay::dbg
