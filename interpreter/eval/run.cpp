#include "interpreter/eval/run.h"

namespace relay::rt {

const FuncDef* LoadedProgram::find_global(std::string_view name) const {
  for (const Definition& d : front.module->defs)
    if (d.kind == Definition::Func && d.func->name == name) return d.func;
  return nullptr;
}

std::unique_ptr<LoadedProgram> load_program(SourceManager& sources, FileId file, std::string_view entry,
                                            const EntryInputs* inputs, DiagnosticBag& diags) {
  auto out = std::make_unique<LoadedProgram>();
  out->file = file;
  out->front = analyze_file(sources, file, diags);
  out->types = check_module(*out->front.module, out->front.prelude.get(), diags);
  if (diags.error_count() > 0) return nullptr;
  out->entry = out->find_global(entry);
  if (!out->entry) {
    diags.emit(DiagKind::BadEntryArgument, Span{file, 0, 0},
               {"no function `@" + std::string(entry) + "` to run in " + sources.get(file).name,
                "expected a definition `def @" + std::string(entry) + "(...)`"});
    return nullptr;
  }
  if (inputs) {
    auto arguments = bind_inputs(*out->entry, out->types.find(out->entry), *inputs, diags);
    if (!arguments || diags.error_count() > 0) return nullptr;
    out->arguments = std::move(*arguments);
  }
  const ModuleTypes* types = &out->types;  // the program lives no longer than `out`
  out->program = std::make_unique<Program>([types](const FuncDef* d) { return types->find(d); },
                                           out->front.module->metadata.get());
  return out;
}

RunOutcome outcome_of_error(const EvalError& e, const NumericsChecker* numerics, const RunOptions& options,
                            const SourceManager& sources) {
  RunOutcome out;
  out.interrupted = e.interrupted;
  const EvalError* shown = &e;
  EvalError relabelled = e;
  if (!options.entry_label.empty() && !e.stack.empty()) {
    // The entry is the outermost frame (a tail call may have replaced it: then it is gone).
    StackEntry& outer = relabelled.stack.back();
    if (outer.call_site.end == outer.call_site.begin && outer.call_site.begin == 0) outer.function = options.entry_label;
    shown = &relabelled;
  }
  out.error = run_error_diagnostic(*shown, numerics, sources, options.span_map);
  return out;
}

RunOutcome run_function(Program& program, const Value& fn, std::vector<Value> args, const RunOptions& options,
                        const SourceManager& sources) {
  Machine machine(program);
  machine.set_max_depth(options.max_depth);
  machine.set_interrupt_flag(options.interrupt);
  machine.set_tier(options.tier);
  NumericsChecker numerics;
  if (options.check_numerics) machine.add_observer(&numerics);
  for (Observer* o : options.observers) machine.add_observer(o);
  RunOutcome out;
  try {
    out.value = machine.call(fn, std::move(args));
    out.steps = machine.steps();
  } catch (const EvalError& e) {
    out = outcome_of_error(e, options.check_numerics ? &numerics : nullptr, options, sources);
    out.steps = machine.steps();
  } catch (const std::exception& e) {
    // A kernel or the compiler failing outside the machine's own checks: still a
    // diagnostic, never a crash of the front end.
    out.error = make_diagnostic(DiagKind::RuntimeFailure, options.fallback_span, {e.what()});
  }
  return out;
}

}  // namespace relay::rt
