// The adapter's requests while the program is stopped, and the JSON shapes of the
// engine's answers.
#include <algorithm>
#include <filesystem>

#include "dap/adapter.h"
#include "dap/json_shapes.h"

namespace relay::dap {

using nlohmann::json;

namespace {

std::string base64(std::string_view bytes) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16 | static_cast<uint8_t>(bytes[i + 1]) << 8 |
                 static_cast<uint8_t>(bytes[i + 2]);
    out += table[v >> 18], out += table[(v >> 12) & 63], out += table[(v >> 6) & 63], out += table[v & 63];
  }
  if (i + 1 == bytes.size()) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    out += table[v >> 18], out += table[(v >> 12) & 63], out += "==";
  } else if (i + 2 == bytes.size()) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16 | static_cast<uint8_t>(bytes[i + 1]) << 8;
    out += table[v >> 18], out += table[(v >> 12) & 63], out += table[(v >> 6) & 63], out += '=';
  }
  return out;
}

int64_t frame_out(int64_t id) { return protocol_frame_id(id); }
int64_t frame_in(int64_t id) { return engine_frame_id(id); }

}  // namespace

json Adapter::source_of(FileId file) const {
  const SourceFile& f = engine_.sources().get(file);
  if (file == engine_.program_file())
    return {{"name", std::filesystem::path(f.name).filename().string()}, {"path", f.name}};
  // Not on disk (the prelude): the client asks for its text with `source`.
  return {{"name", f.name}, {"sourceReference", static_cast<int64_t>(file) + 1}, {"presentationHint", "deemphasize"}};
}

json Adapter::breakpoint_json(const dbg::BreakpointView& b) const {
  json out = {{"id", b.id}, {"verified", b.verified}};
  if (!b.message.empty()) out["message"] = b.message;
  if (b.pos) {
    out["source"] = source_of(engine_.program_file());
    out["line"] = line_out(b.pos->line);
    out["column"] = column_out(b.pos->column);
    out["endLine"] = line_out(b.pos->end_line);
    out["endColumn"] = column_out(b.pos->end_column);
  }
  return out;
}

json Adapter::variable_json(const dbg::VariableView& v) const { return dap::variable_json(v); }

void Adapter::stack_trace(const json& r) {
  const json& a = r.value("arguments", json::object());
  if (engine_.state() != dbg::Debugger::State::Stopped) return fail(r, "the program is not stopped");
  int64_t total = 0;
  auto frames = engine_.stack_trace(a.value("startFrame", int64_t{0}), a.value("levels", int64_t{0}), &total);
  json out = json::array();
  for (const dbg::FrameView& f : frames) {
    json j = {{"id", frame_out(f.id)}, {"name", f.name}, {"line", 0}, {"column", 0}};
    if (f.label) j["presentationHint"] = "label";
    if (f.pos) {
      j["line"] = line_out(f.pos->line);
      j["column"] = column_out(f.pos->column);
      j["endLine"] = line_out(f.pos->end_line);
      j["endColumn"] = column_out(f.pos->end_column);
      j["source"] = f.prelude ? source_of(f.file) : source_of(engine_.program_file());
      if (f.prelude) j["presentationHint"] = "subtle";
    }
    out.push_back(std::move(j));
  }
  respond(r, {{"stackFrames", out}, {"totalFrames", total}});
}

void Adapter::scopes(const json& r) {
  json out = json::array();
  for (const dbg::ScopeView& s : engine_.scopes(frame_in(r.at("arguments").at("frameId").get<int64_t>()))) {
    out.push_back(scope_json(s));
  }
  respond(r, {{"scopes", out}});
}

void Adapter::variables(const json& r) {
  const json& a = r.at("arguments");
  auto kind = child_filter(a.value("filter", ""));
  auto vars = engine_.variables(a.at("variablesReference").get<int64_t>(), kind, a.value("start", int64_t{0}),
                                a.value("count", int64_t{0}));
  if (!vars) return fail(r, "unknown variablesReference (variables are valid only while the program is stopped)");
  json out = json::array();
  for (const dbg::VariableView& v : *vars) out.push_back(variable_json(v));
  respond(r, {{"variables", out}});
}

void Adapter::evaluate(const json& r) {
  const json& a = r.at("arguments");
  std::optional<int64_t> frame;
  if (a.contains("frameId")) frame = frame_in(a["frameId"].get<int64_t>());
  std::string error;
  auto v = engine_.evaluate(a.at("expression").get<std::string>(), frame, eval_context(a.value("context", "repl")), &error);
  flush_output();
  if (!v) return fail(r, error);
  respond(r, evaluate_body(*v));
}

void Adapter::set_variable(const json& r) {
  const json& a = r.at("arguments");
  std::string error;
  auto v = engine_.set_variable(a.at("variablesReference").get<int64_t>(), a.at("name").get<std::string>(),
                                a.at("value").get<std::string>(), &error);
  if (!v) return fail(r, error);
  json body = {{"value", v->value}, {"variablesReference", v->reference}};
  if (!v->type.empty()) body["type"] = v->type;
  respond(r, body);
}

void Adapter::completions(const json& r) {
  const json& a = r.at("arguments");
  std::optional<int64_t> frame;
  if (a.contains("frameId")) frame = frame_in(a["frameId"].get<int64_t>());
  const std::string text = a.at("text").get<std::string>();
  const uint32_t column = column_in(a.at("column").get<int64_t>());
  json out = json::array();
  for (const dbg::Completion& c : engine_.completions(text, column, frame)) {
    json j = {{"label", c.label}, {"type", c.kind}};
    if (!c.detail.empty()) j["detail"] = c.detail;
    out.push_back(std::move(j));
  }
  respond(r, {{"targets", out}});
}

void Adapter::step_in_targets(const json& r) {
  json out = json::array();
  for (const dbg::StepInTarget& t : engine_.step_in_targets(frame_in(r.at("arguments").at("frameId").get<int64_t>()))) {
    json j = {{"id", t.id}, {"label", t.label}};
    if (t.pos) j["line"] = line_out(t.pos->line), j["column"] = column_out(t.pos->column);
    out.push_back(std::move(j));
  }
  respond(r, {{"targets", out}});
}

void Adapter::exception_info(const json& r) {
  auto info = engine_.exception_info();
  if (!info) return fail(r, "the program is not stopped on an exception");
  respond(r, {{"exceptionId", info->id},
              {"description", info->description},
              {"breakMode", "always"},
              {"details", {{"message", info->description}, {"typeName", info->id}, {"stackTrace", info->details}}}});
}

void Adapter::read_memory(const json& r) {
  const json& a = r.at("arguments");
  int64_t unreadable = 0;
  const int64_t offset = a.value("offset", int64_t{0});
  auto bytes = engine_.read_memory(a.at("memoryReference").get<std::string>(), offset, a.at("count").get<int64_t>(),
                                   &unreadable);
  if (!bytes) return fail(r, "unknown memoryReference (memory is readable only while the program is stopped)");
  json body = {{"address", std::to_string(std::max<int64_t>(offset, 0))}, {"data", base64(*bytes)}};
  // DAP's numbers must be exact in a double; a count past the tensor's end may not be.
  constexpr int64_t kLargestExactDouble = (int64_t{1} << 53) - 1;
  if (unreadable) body["unreadableBytes"] = std::min(unreadable, kLargestExactDouble);
  respond(r, body);
}

void Adapter::source(const json& r) {
  const json& a = r.value("arguments", json::object());
  int64_t ref = a.value("sourceReference", int64_t{0});
  if (ref == 0 && a.contains("source")) ref = a["source"].value("sourceReference", int64_t{0});
  if (ref <= 0 || static_cast<size_t>(ref) > engine_.sources().size()) return fail(r, "unknown sourceReference");
  std::shared_ptr<const SourceFile> file;
  try {
    file = engine_.sources().share(static_cast<FileId>(ref - 1));
  } catch (const std::out_of_range&) {  // an expression's text, released with it
    return fail(r, "unknown sourceReference (the text is gone)");
  }
  respond(r, {{"content", file->text}, {"mimeType", "text/x-relay"}});
}

}  // namespace relay::dap
