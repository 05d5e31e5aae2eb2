// `relay grad FILE [--entry NAME] [--name NEW] [-o OUT]`: reverse-mode automatic
// differentiation (lang/autodiff/first_order.h). Prints FILE with a function @NEW
// (default @<entry>_grad) added: the entry's parameters, returning the entry's result
// and the gradient of the sum of its elements with respect to each parameter.
//
// The new text is checked before it is printed: a gradient rule that produced an
// ill-typed program is reported as an internal error rather than handed to the user.
// Exit status: 0 written, 1 errors (the file's, or a construct or operator that cannot be
// differentiated, E0120), 2 usage error.
#include <cstdio>

#include "cli/commands.h"
#include "cli/option_value.h"
#include "cli/diagnostic_output.h"
#include "cli/generated_text.h"
#include "cli/load_entry.h"
#include "lang/autodiff/first_order.h"

namespace relay::cli {

namespace {

void grad_usage(FILE* out) {
  std::fprintf(out,
               "usage: relay grad FILE [--entry NAME] [--name NEW] [-o OUT]\n"
               "                  [--error-format=human|json] [--error-limit=N] [--color=auto|always|never]\n"
               "\n"
               "Differentiates @main (or NAME) of FILE in reverse mode and prints FILE with a new\n"
               "function @NEW (default: NAME_grad). It takes the same parameters and returns\n"
               "(result, (gradient per parameter)): the gradient of the sum of the result's\n"
               "elements, as TVM's relay.transform.gradient(mode=\"first_order\"). Run it with\n"
               "`relay run OUT --entry NEW`.\n"
               "  -o OUT       write to OUT instead of stdout\n"
               "The function may use operators with a gradient rule (`relay ops` lists them),\n"
               "tuples, projections, constants and let bindings; not control flow, closures,\n"
               "references, ADTs or calls of other globals (error E0120).\n"
               "Exit status: 0 ok, 1 errors, 2 usage error.\n");
}

}  // namespace

int cmd_grad(const Args& args) {
  OutputOptions out_opts;
  std::string file, entry = "main", name, output;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* opt) { return option_value(args, i, opt); };
    if (a == "--help" || a == "-h") {
      grad_usage(stdout);
      return kExitOk;
    } else if (a == "--entry" || a == "--name" || a == "-o") {
      const std::string* v = value(a.c_str());
      if (!v) return kExitUsage;
      std::string& target = a == "--entry" ? entry : a == "--name" ? name : output;
      target = *v;
      if (a != "-o" && !target.empty() && target[0] == '@') target.erase(0, 1);
    } else if (!take_argument_of_one_file(args, i, out_opts, grad_usage, "grad", file)) {
      return kExitUsage;
    }
  }
  if (file.empty()) {
    grad_usage(stderr);
    return kExitUsage;
  }
  if (name.empty()) name = entry + "_grad";

  DiagnosticPrinter printer(out_opts);
  SourceManager sources;
  auto loaded = load_entry(file, entry, nullptr, printer, sources);
  if (!loaded) return kExitErrors;
  const SourceFile& source = sources.get(loaded->file);
  DiagnosticBag diags;
  if (loaded->find_global(name)) {
    const FuncDef* clash = loaded->find_global(name);
    diags.emit(DiagKind::NotDifferentiable, clash->name_span,
               {entry, "the file already defines `@" + name + "`", "the gradient's name is taken"})
        .help("choose another name with `--name`");
  }
  std::optional<std::string> def;
  if (!diags.has_errors())
    def = autodiff::first_order_gradient(*loaded->entry, *loaded->types.find(loaded->entry), source, name, diags);
  if (!def) {
    printer.print(diags, sources);
    printer.print_summary();
    return kExitErrors;
  }
  std::string text = autodiff::insert_definition(*loaded->front.module, source, *def);

  if (!check_generated(sources, source.name + " (with @" + name + ")", text, name, "the gradient of @" + entry,
                       printer))
    return kExitErrors;
  return write_generated(output, text) ? kExitOk : kExitErrors;
}

}  // namespace relay::cli
