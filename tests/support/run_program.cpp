#include "tests/support/run_program.h"

#include "interpreter/eval/run.h"

namespace relay::testing {

RunResult run_main(const std::string& program, const std::vector<rt::NDArray>& inputs) {
  RunResult out;
  SourceManager sources;
  FileId file = sources.add("test.relay", program);
  DiagnosticBag diags;
  auto loaded = rt::load_program(sources, file, "main", nullptr, diags);
  for (const Diagnostic& d : diags.items())
    if (d.severity == Severity::Error) {
      out.error = d.code() == std::string_view("E0103") ? "no @main" : std::string(d.code()) + ": " + d.message;
      return out;
    }
  rt::RunOutcome r = rt::run_function(*loaded->program, loaded->program->global(*loaded->entry),
                                      std::vector<rt::Value>(inputs.begin(), inputs.end()), {}, sources);
  if (r.value) out.value = *r.value;
  else out.error = r.error->message;
  return out;
}

}  // namespace relay::testing
