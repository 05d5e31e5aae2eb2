#include "tests/support/run_program.h"

#include "interpreter/eval/machine.h"
#include "lang/base/source.h"
#include "lang/syntax/frontend.h"
#include "lang/types/check_module.h"

namespace relay::testing {

RunResult run_main(const std::string& program, const std::vector<rt::NDArray>& inputs) {
  RunResult out;
  SourceManager sources;
  FileId file = sources.add("test.relay", program);
  DiagnosticBag diags;
  FrontendResult fe = analyze_file(sources, file, diags);
  ModuleTypes types = check_module(*fe.module, fe.prelude.get(), diags);
  for (const Diagnostic& d : diags.items())
    if (d.severity == Severity::Error) {
      out.error = std::string(d.code()) + ": " + d.message;
      return out;
    }
  const FuncDef* main = nullptr;
  for (const Definition& d : fe.module->defs)
    if (d.kind == Definition::Func && d.func->name == "main") main = d.func;
  if (!main) return out.error = "no @main", out;
  rt::Program prog([&](const FuncDef* d) { return types.find(d); }, fe.module->metadata.get());
  rt::Machine machine(prog);
  try {
    out.value = machine.call(prog.global(*main), std::vector<rt::Value>(inputs.begin(), inputs.end()));
  } catch (const rt::EvalError& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace relay::testing
