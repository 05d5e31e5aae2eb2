// The session's commands (`:help` lists them).
#include <chrono>
#include <cstdio>

#include "interpreter/value_print.h"
#include "lang/autodiff/first_order.h"
#include "lang/syntax/frontend.h"
#include "lang/syntax/printer.h"
#include "repl/dataflow_graph.h"
#include "repl/graphviz_render.h"
#include "repl/session_impl.h"

namespace relay::repl {

namespace {

struct CommandInfo {
  const char* name;
  const char* args;
  const char* summary;
};

const CommandInfo kCommands[] = {
    {"type", "EXPR", "show the type of EXPR without evaluating it"},
    {"ir", "EXPR", "show EXPR's typed IR (each binding with its type, as TVM prints it)"},
    {"time", "EXPR", "evaluate EXPR and show how long it took"},
    {"viz", "NAME", "draw the dataflow graph of function @NAME (SVG, through Graphviz)"},
    {"grad", "NAME", "define @NAME_grad: @NAME's result and its gradient for each parameter"},
    {"env", "", "list the session's bindings and definitions with their types"},
    {"load", "FILE", "add the definitions of a .relay file (replacing those of the same name)"},
    {"reload", "", "load the files loaded with :load again"},
    {"reset", "", "forget every definition and binding"},
    {"set", "SETTING on|off", "check-numerics (stop at the first NaN/Inf) or jit (native code)"},
    {"jit", "", "what the JIT compiled (functions, shapes, groups) and what stayed interpreted"},
    {"help", "", "show this help"},
    {"quit", "", "leave the session"},
};


std::string format_duration(double ms) {
  char buf[64];
  if (ms < 1) std::snprintf(buf, sizeof buf, "%.1f us", ms * 1000);
  else if (ms < 1000) std::snprintf(buf, sizeof buf, "%.2f ms", ms);
  else std::snprintf(buf, sizeof buf, "%.3f s", ms / 1000);
  return buf;
}

// `fn [A, B](fn (A, B) -> B, B, List[A]) -> B` from a fully annotated definition.
std::string declared_signature(const FuncDef& def) {
  const FunctionExpr& fn = *def.fn;
  std::string s = "fn ";
  if (!fn.type_params.empty()) {
    s += "[";
    for (size_t i = 0; i < fn.type_params.size(); ++i) s += (i ? ", " : "") + std::string(fn.type_params[i]->name);
    s += "]";
  }
  s += "(";
  for (size_t i = 0; i < fn.params.size(); ++i)
    s += (i ? ", " : "") + (fn.params[i]->annotation ? print_type(fn.params[i]->annotation) : std::string("_"));
  s += ") -> " + (fn.ret_type ? print_type(fn.ret_type) : std::string("_"));
  return s;
}


}  // namespace

std::string Session::help_text() {
  std::string s =
      "Enter definitions (`def @f(...) { ... }`, `type T { ... }`), bindings\n"
      "(`let %w = ones(shape=[3, 3]);`, kept for later inputs) or expressions (evaluated).\n"
      "A definition with a name already defined replaces it; its callers are checked again.\n"
      "The prelude (List, Option, @map, @foldl, ...) is always available.\n\nCommands:\n";
  for (const auto& c : kCommands) {
    std::string head = std::string(":") + c.name + (*c.args ? std::string(" ") + c.args : "");
    char line[160];
    std::snprintf(line, sizeof line, "  %-30s %s\n", head.c_str(), c.summary);
    s += line;
  }
  s += "Commands may be shortened to a unique prefix; `:t` is `:type` and `:q` is `:quit`.";
  return s;
}

const std::vector<std::string>& Session::command_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& c : kCommands) n.push_back(std::string(":") + c.name);
    return n;
  }();
  return names;
}

ExecResult Session::Impl::command(const CommandLine& c, FileId input) {
  const SourceFile& src = display.get(input);
  Span whole{input, 0, static_cast<uint32_t>(src.text.size())};
  Span arg_span{input, c.arg_offset, c.arg_offset + static_cast<uint32_t>(c.arg.size())};
  // Unique prefixes: `:t` is `:type`, `:re` is ambiguous (`:reload`, `:reset`).
  // The one-letter forms GHCi users type; other prefixes must be unique.
  std::string wanted = c.name == "t" ? "type" : c.name == "q" ? "quit" : c.name;
  std::vector<const CommandInfo*> matches;
  for (const auto& info : kCommands) {
    if (wanted == info.name) {
      matches = {&info};
      break;
    }
    if (!c.name.empty() && std::string_view(info.name).starts_with(c.name)) matches.push_back(&info);
  }
  if (matches.size() != 1) {
    std::string msg = matches.empty() ? "unknown command `:" + c.name + "`"
                                      : "`:" + c.name + "` is ambiguous";
    std::string label = "`:help` lists the commands";
    if (matches.size() > 1) {
      label = "could be";
      for (const auto* m : matches) label += std::string(" :") + m->name;
    }
    return session_error(whole, msg, label);
  }
  std::string name = matches.front()->name;
  bool needs_arg = *matches.front()->args && name != "set";
  if (needs_arg && c.arg.empty())
    return session_error(whole, "`:" + name + "` needs " + matches.front()->args,
                         std::string("usage: :") + name + " " + matches.front()->args);
  Origin origin{input, c.arg_offset};

  if (name == "type" && c.arg.starts_with("@")) {
    // A global's own type: a session function's as inferred from its body, a prelude
    // function's as declared (polymorphic: as a value it would need its type arguments).
    ExecResult r;
    for (const auto& d : accepted->definitions)
      if ("@" + std::string(d.def->name) == c.arg && d.types) {
        r.outputs.push_back(text_output(type_to_string(d.types->type)));
        return r;
      }
    if (auto prelude = load_prelude(db.sources()))
      for (const Definition& d : prelude->defs)
        if (d.kind == Definition::Func && "@" + std::string(d.func->name) == c.arg) {
          r.outputs.push_back(text_output(declared_signature(*d.func)));
          return r;
        }
  }
  if (name == "type" || name == "ir" || name == "time") {
    ExecResult result;
    auto in = check_input(c.arg, nullptr, origin, result);
    if (!in) return result;
    if (name == "type") {
      result.outputs.push_back(text_output(in->type));
      return result;
    }
    if (name == "ir") {
      const InferredTypes& types = *in->def->types;
      PrintOptions po;
      po.comments = false;
      po.type_comment = [&](const Expr* e) {
        Ty t = types.type_of(e);
        return t ? type_to_string(t) : std::string();
      };
      std::string ir = print_body(in->def->def->fn->body, po);
      result.outputs.push_back(text_output(ir));
      result.outputs.back().relay_source = true;
      return result;
    }
    uint64_t steps = 0;
    auto start = std::chrono::steady_clock::now();
    auto value = run_input(*in, origin, result, &steps);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!value) return result;
    result.outputs.push_back(value_output(*value, in->type));
    result.outputs.push_back(text_output("time: " + format_duration(ms) + " (" + std::to_string(steps) +
                                         " evaluation steps)"));
    return result;
  }
  if (name == "viz") return viz(c.arg, arg_span);
  if (name == "grad") return grad(c.arg, arg_span);
  if (name == "env") return env();
  if (name == "load") {
    std::string path(c.arg), text, error, reason;
    if (!read_text_file(path, &text, &error, &reason)) return session_error(arg_span, "cannot read `" + path + "`", reason);
    FileId file = display.add(path, std::move(text));
    ExecResult r = define(file, path);
    if (r.ok && std::find(loaded_files.begin(), loaded_files.end(), path) == loaded_files.end())
      loaded_files.push_back(path);
    return r;
  }
  if (name == "reload") {
    if (loaded_files.empty()) return session_error(whole, "nothing to reload", "no file was loaded with `:load`");
    ExecResult all;
    for (const auto& path : loaded_files) {
      std::string text, error, reason;
      if (!read_text_file(path, &text, &error, &reason))
        return session_error(whole, "cannot read `" + path + "` again", reason);
      ExecResult r = define(display.add(path, std::move(text)), path);
      for (auto& o : r.outputs) all.outputs.push_back(std::move(o));
      if (!r.ok) {
        all.ok = false;
        return all;
      }
    }
    return all;
  }
  if (name == "reset") return reset();
  if (name == "set") {
    std::string_view a = c.arg;
    size_t sp = a.find_first_of(" \t");
    std::string_view key = a.substr(0, sp);
    std::string_view val = sp == std::string_view::npos ? "" : a.substr(a.find_first_not_of(" \t", sp));
    if (key != "check-numerics" && key != "jit")
      return session_error(arg_span, "unknown setting `" + std::string(key) + "`", "settings: check-numerics, jit");
    if (val != "on" && val != "off")
      return session_error(arg_span, "`" + std::string(key) + "` is `on` or `off`",
                           "usage: :set " + std::string(key) + " on|off");
    bool& setting = key == "jit" ? options.jit : options.check_numerics;
    setting = val == "on";
    ExecResult r;
    std::string text = std::string(key) + ": " + (setting ? "on" : "off");
    if (key == "jit" && setting && !tier) text += " (this front end has no JIT: everything is interpreted)";
    r.outputs.push_back(text_output(text));
    return r;
  }
  if (name == "jit") {
    ExecResult r;
    if (!tier) r.outputs.push_back(text_output("this front end has no JIT: everything is interpreted"));
    else {
      std::string text = std::string("jit: ") + (options.jit ? "on" : "off") + "\n" + tier->describe();
      if (!text.empty() && text.back() == '\n') text.pop_back();
      r.outputs.push_back(text_output(text));
    }
    return r;
  }
  if (name == "help") {
    ExecResult r;
    r.outputs.push_back(text_output(Session::help_text()));
    return r;
  }
  ExecResult r;  // quit
  r.quit = true;
  return r;
}

ExecResult Session::Impl::env() const {
  std::string s;
  for (const auto& b : bindings) s += "%" + b.name + ": " + b.type + "\n";
  const auto types = global_type_map(*accepted);
  for (const auto& item : module.items()) {
    if (item.name[0] != '@') {
      s += "type " + item.name + "\n";
      continue;
    }
    auto it = types.find(item.name);
    const std::string type = it == types.end() ? "_" : it->second;
    s += item.name + ": " + type + (item.loaded_from.empty() ? "" : "  (from " + item.loaded_from + ")") + "\n";
  }
  if (s.empty()) s = "(the session is empty)\n";
  s.pop_back();
  ExecResult r;
  r.outputs.push_back(text_output(s));
  return r;
}

const CheckedDefinition* Session::Impl::session_function(std::string_view name, std::string& bare) const {
  bare = std::string(name);
  if (!bare.empty() && bare[0] == '@') bare.erase(0, 1);
  for (const auto& d : accepted->definitions)
    if (d.def->name == bare && d.types) return &d;
  return nullptr;
}

ExecResult Session::Impl::no_such_function(const std::string& bare, Span at) {
  return session_error(at, "the session defines no function `@" + bare + "`", "`:env` lists the definitions");
}

ExecResult Session::Impl::viz(std::string_view name, Span at) {
  std::string n;
  const CheckedDefinition* def = session_function(name, n);
  if (!def) return no_such_function(n, at);
  std::string svg, png, error;
  const std::string dot = dataflow_dot(*def->def, def->types.get());
  if (!(options.viz_png ? render_svg_and_png(dot, &svg, &png, &error) : render_svg(dot, &svg, &error)))
    return session_error(at, "Graphviz could not draw `@" + n + "`: " + error, "");
  ExecResult r;
  Output o;
  o.kind = Output::Kind::Svg;
  o.svg = std::move(svg);
  o.png = std::move(png);
  o.name = n;
  o.text = "the dataflow graph of @" + n;
  r.outputs.push_back(std::move(o));
  return r;
}

ExecResult Session::Impl::grad(std::string_view name, Span at) {
  std::string n;
  const CheckedDefinition* def = session_function(name, n);
  if (!def) return no_such_function(n, at);
  DiagnosticBag diags;
  std::optional<std::string> text =
      autodiff::first_order_gradient(*def->def, *def->types, db.sources().get(def->chunk_file), n + "_grad", diags);
  if (!text) {
    // The pass reports in the definition's chunk; the session shows the file's spans
    // where the user wrote them.
    std::vector<Diagnostic> in_file;
    for (Diagnostic d : diags.items()) {
      for (Label& l : d.labels)
        if (l.span.file == def->chunk_file)
          l.span = Span{accepted->file, l.span.begin + def->chunk_offset, l.span.end + def->chunk_offset};
      in_file.push_back(std::move(d));
    }
    ExecResult r;
    r.ok = false;
    r.outputs.push_back(error_output(to_display(in_file, module.build(), at, true)));
    return r;
  }
  return define(display.add("<gradient of @" + n + ">", std::move(*text)), "");
}

ExecResult Session::Impl::reset() {
  module.clear();
  bindings.clear();
  loaded_files.clear();
  accepted = check_text(module.build());
  generations.clear();
  ExecResult r;
  r.outputs.push_back(text_output("the session is empty"));
  return r;
}

}  // namespace relay::repl
