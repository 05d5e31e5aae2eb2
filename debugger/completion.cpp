// Completion in the Debug Console with the language server's engine (ide::complete): the
// typed text becomes the body of a wrapper function, added to the program's own text,
// whose parameters are the frame's variables with their types. The language server then
// sees exactly what a user typing inside the program would: the frame's variables, the
// program's globals and constructors, operators with their snippets, attributes after
// `nn.conv2d(%x, %w, `, dtypes. The database keeps the program's chunks between requests,
// so each completion re-checks only the wrapper.
#include "debugger/debugger.h"
#include "ide/completion.h"

namespace relay::dbg {

namespace {

constexpr std::string_view kWrapper = "__debug_completion";

const char* kind_name(ide::CompletionKind k) {
  switch (k) {
    case ide::CompletionKind::Local:
    case ide::CompletionKind::Parameter: return "variable";
    case ide::CompletionKind::Global: return "function";
    case ide::CompletionKind::Operator: return "function";
    case ide::CompletionKind::Attribute: return "property";
    case ide::CompletionKind::Constructor: return "constructor";
    case ide::CompletionKind::DType: return "enum";
    case ide::CompletionKind::Keyword: return "keyword";
    case ide::CompletionKind::Field: return "field";
  }
  return "text";
}

// The byte offset of 1-based UTF-16 `column` in the first line of `text`.
uint32_t byte_offset(std::string_view text, uint32_t column) {
  uint32_t units = 0, i = 0;
  while (i < text.size() && units + 1 < column && text[i] != '\n') {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const uint32_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    units += len == 4 ? 2 : 1;
    i += len;
  }
  return std::min<uint32_t>(i, static_cast<uint32_t>(text.size()));
}

}  // namespace

std::vector<Completion> Debugger::completions(std::string_view text, uint32_t column, std::optional<int64_t> frame_id) {
  std::vector<Completion> out;
  if (!loaded_) return out;
  std::optional<size_t> frame;
  if (frame_id) frame = frame_index(*frame_id);
  else if (state_ == State::Stopped) frame = 0;
  std::string params;
  if (frame)
    for (const EnvVar& v : frame_env(*frame)) {
      // Graph names (%0) cannot be parameters; the others are what a user types.
      if (!v.decl->name.empty() && std::isdigit(static_cast<unsigned char>(v.decl->name[0]))) continue;
      params += (params.empty() ? "%" : ", %") + std::string(v.decl->name) + (v.type.empty() ? "" : ": " + v.type);
    }
  const SourceFile& file = sources_->get(loaded_->file);
  const Module& module = *loaded_->front.module;
  // The wrapper goes after the definitions and before a `#[metadata]` section.
  const size_t insert = module.metadata ? module.metadata_span.begin : file.text.size();
  std::string wrapper = "\ndef @" + std::string(kWrapper) + "(" + params + ") {\n";
  const size_t body = insert + wrapper.size();
  wrapper += std::string(text) + "\n}\n";
  std::string whole = file.text.substr(0, insert) + wrapper + file.text.substr(insert);
  if (!completion_db_) completion_db_ = std::make_unique<CheckDatabase>();
  completion_db_->set_file(file.name, whole);
  auto check = completion_db_->check(file.name);
  if (!check) return out;
  ide::CompletionResult r =
      ide::complete(*check, nullptr, whole, static_cast<uint32_t>(body + byte_offset(text, column)));
  for (const ide::CompletionItem& item : r.items) {
    if (item.label.find(kWrapper) != std::string::npos) continue;
    out.push_back({item.label, item.snippet || item.insert_text.empty() ? item.label : item.insert_text, item.detail,
                   kind_name(item.kind)});
  }
  return out;
}

}  // namespace relay::dbg
