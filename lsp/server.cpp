#include "lsp/server.h"

#include <exception>

#include "lsp/editing.h"
#include "lsp/features.h"
#include "lsp/navigation.h"

namespace relay::lsp {

Server::Server(protocol::FramedStream& transport) : transport_(transport) {}

int Server::run() {
  while (!exit_) {
    std::vector<json> batch;
    bool eof = false;
    do {
      std::string body, error;
      auto status = transport_.read(body, error);
      if (status == protocol::FramedStream::ReadStatus::Eof) {
        eof = true;
        break;
      }
      if (status == protocol::FramedStream::ReadStatus::BadFraming) {
        respond_error(nullptr, kParseError, "bad message framing: " + error);
        continue;
      }
      json msg = json::parse(body, nullptr, /*allow_exceptions=*/false);
      if (msg.is_discarded()) {
        respond_error(nullptr, kParseError, "the message is not valid JSON");
        continue;
      }
      batch.push_back(std::move(msg));
    } while (batch.size() < 4096 && transport_.has_pending());
    for (size_t i = 0; i < batch.size() && !exit_; ++i)
      handle(batch[i], std::span<const json>(batch).subspan(i + 1));
    for (const std::string& uri : dirty_)
      if (docs_.count(uri)) publish_diagnostics(uri);
    dirty_.clear();
    if (eof) break;
  }
  return shutdown_ ? 0 : 1;
}

void Server::send(const json& msg) { transport_.write(msg.dump(-1, ' ', false, json::error_handler_t::replace)); }

void Server::notify(const std::string& method, json params) {
  send(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

uint32_t Server::position_offset(const Document& doc, const json& params) const {
  return offset_of(doc.text, doc.lines(), params.at("position"), encoding_);
}

void Server::respond(const json& id, json result) {
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Server::respond_error(const json& id, int code, const std::string& message) {
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

namespace {

// Whether a later message in the batch cancels request `id` or edits the document it is
// about.
bool cancelled_later(const nlohmann::json& id, std::span<const nlohmann::json> later) {
  for (const auto& m : later)
    if (m.is_object() && m.value("method", "") == "$/cancelRequest" && m.contains("params") &&
        m["params"].is_object() && m["params"].contains("id") && m["params"]["id"] == id)
      return true;
  return false;
}

bool edited_later(const nlohmann::json& params, std::span<const nlohmann::json> later) {
  if (!params.is_object() || !params.contains("textDocument") || !params["textDocument"].is_object()) return false;
  const auto& uri = params["textDocument"].value("uri", nlohmann::json());
  for (const auto& m : later)
    if (m.is_object() && m.value("method", "") == "textDocument/didChange" && m.contains("params") &&
        m["params"].is_object() && m["params"].contains("textDocument") && m["params"]["textDocument"].is_object() &&
        m["params"]["textDocument"].value("uri", nlohmann::json()) == uri)
      return true;
  return false;
}

}  // namespace

void Server::handle(const json& msg, std::span<const json> later) {
  if (!msg.is_object() || !msg.contains("method") || !msg["method"].is_string()) {
    if (msg.is_object() && msg.contains("id") && !msg.contains("method")) {  // a response to our request
      on_client_response(msg);
      return;
    }
    respond_error(msg.is_object() && msg.contains("id") ? msg["id"] : json(), kInvalidRequest,
                  "not a JSON-RPC request or notification");
    return;
  }
  const std::string method = msg["method"];
  const json params = msg.contains("params") ? msg["params"] : json::object();
  const bool is_request = msg.contains("id");
  if (!is_request) {
    // A failure boundary per message: one bad notification never takes the server down.
    try {
      dispatch_notification(method, params);
    } catch (const std::exception&) {
    }
    return;
  }
  const json id = msg["id"];
  if (!id.is_number_integer() && !id.is_string()) {
    respond_error(nullptr, kInvalidRequest, "a request id must be a number or a string");
    return;
  }
  if (!initialized_ && method != "initialize") {
    respond_error(id, kServerNotInitialized, "the server has not been initialized");
    return;
  }
  if (shutdown_) {
    respond_error(id, kInvalidRequest, "the server is shutting down");
    return;
  }
  if (cancelled_later(id, later)) {
    respond_error(id, kRequestCancelled, "cancelled");
    return;
  }
  if (method != "textDocument/formatting" && edited_later(params, later)) {
    respond_error(id, kContentModified, "the document changed before the request was handled");
    return;
  }
  try {
    respond(id, dispatch_request(method, params));
  } catch (const MethodNotFound&) {
    respond_error(id, kMethodNotFound, "unknown method `" + method + "`");
  } catch (const BadParams& e) {
    respond_error(id, kInvalidParams, e.what());
  } catch (const RequestFailed& e) {
    respond_error(id, kRequestFailed, e.what());
  } catch (const json::exception& e) {
    respond_error(id, kInvalidParams, std::string("malformed parameters: ") + e.what());
  } catch (const std::exception& e) {
    respond_error(id, kInternalError, std::string("internal error: ") + e.what());
  }
}

Server::json Server::dispatch_request(const std::string& method, const json& params) {
  if (method == "initialize") {
    if (initialized_) throw BadParams("`initialize` was already called");
    return initialize(params);
  }
  if (method == "shutdown") {
    shutdown_ = true;
    return nullptr;
  }
  if (method == "textDocument/hover") return hover(params);
  if (method == "textDocument/formatting") return formatting(params);
  if (auto r = navigation_request(method, params)) return std::move(*r);
  if (method == "relay/typedIR") return typed_ir(params);
  // Editing features (lsp/server_editing.cpp).
  if (method == "textDocument/completion") return completion(params);
  if (method == "completionItem/resolve") return completion_resolve(params);
  if (method == "textDocument/signatureHelp") return signature_help(params);
  if (method == "textDocument/semanticTokens/full") return semantic_tokens_full(params);
  if (method == "textDocument/semanticTokens/full/delta") return semantic_tokens_delta(params);
  if (method == "textDocument/inlayHint") return inlay_hints(params);
  if (method == "textDocument/codeAction") return code_actions(params);
  if (method == "textDocument/rangeFormatting") return range_formatting(params);
  // For tests: the server's copy of a document, to check incremental sync against.
  if (method == "relay/debug/documentText") return {{"text", document(params).text}};
  throw MethodNotFound();
}

void Server::dispatch_notification(const std::string& method, const json& params) {
  if (method == "exit") {
    exit_ = true;
    return;
  }
  if (!initialized_) return;  // notifications before initialize are dropped (spec)
  if (method == "textDocument/didOpen") {
    const json& td = params.at("textDocument");
    Document d;
    d.uri = td.at("uri").get<std::string>();
    d.path = path_of_uri(d.uri);
    d.set_text(td.at("text").get<std::string>());
    d.version = td.value("version", 0);
    db_.set_file(d.path, d.text);
    dirty_.insert(d.uri);
    docs_[d.uri] = std::move(d);
  } else if (method == "textDocument/didChange") {
    Document& d = document(params);
    std::string text = d.text;
    for (const json& change : params.at("contentChanges"))
      if (!apply_change(text, change, encoding_)) return;  // malformed: keep the last good text
    d.set_text(std::move(text));
    d.version = params.at("textDocument").value("version", d.version);
    db_.set_file(d.path, d.text);
    dirty_.insert(d.uri);
  } else if (method == "textDocument/didClose") {
    const std::string uri = params.at("textDocument").at("uri").get<std::string>();
    auto it = docs_.find(uri);
    if (it == docs_.end()) return;
    db_.remove_file(it->second.path);
    tokens_.erase(uri), last_good_.erase(uri), symbols_.erase(uri);  // per-document state
    docs_.erase(it);
    dirty_.erase(uri);
    notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
  }
  if (method == "initialized" && work_done_progress_) request_progress_token();
  // $/cancelRequest (handled when batching), $/setTrace, didSave: nothing to do.
}

Document& Server::document(const json& params) {
  const std::string uri = params.at("textDocument").at("uri").get<std::string>();
  auto it = docs_.find(uri);
  if (it == docs_.end()) throw BadParams("unknown document `" + uri + "` (not opened with didOpen)");
  return it->second;
}

std::shared_ptr<const FileCheck> Server::check(const Document& doc) {
  auto r = check_with_progress(doc);
  if (!r) throw std::runtime_error("the check of `" + doc.path + "` was cancelled");
  return r;
}

Server::json Server::initialize(const json& params) {
  initialized_ = true;
  // UTF-8 positions when the client offers them (fewer conversions), else UTF-16.
  encoding_ = PositionEncoding::Utf16;
  if (params.is_object() && params.contains("capabilities")) {
    const json& general = params["capabilities"].value("general", json::object());
    if (general.is_object() && general.contains("positionEncodings") && general["positionEncodings"].is_array())
      for (const json& e : general["positionEncodings"])
        if (e == "utf-8") encoding_ = PositionEncoding::Utf8;
    const json& window = params["capabilities"].value("window", json::object());
    work_done_progress_ = window.is_object() && window.value("workDoneProgress", false) == true;
  }
  if (params.is_object() && params.contains("initializationOptions") && params["initializationOptions"].is_object()) {
    const json& limit = params["initializationOptions"].value("errorLimit", json());
    if (limit.is_number_unsigned()) error_limit_ = limit.get<size_t>();
  }
  json result = {{"capabilities",
           {{"positionEncoding", encoding_ == PositionEncoding::Utf8 ? "utf-8" : "utf-16"},
            {"textDocumentSync", {{"openClose", true}, {"change", 2}}},
            {"hoverProvider", true},
            {"documentFormattingProvider", true},
            {"documentSymbolProvider", true},
            // navigation (server_navigation.cpp)
            {"definitionProvider", true},
            {"typeDefinitionProvider", true},
            {"referencesProvider", true},
            {"documentHighlightProvider", true},
            {"renameProvider", {{"prepareProvider", true}}},
            {"workspaceSymbolProvider", true},
            {"foldingRangeProvider", true},
            {"selectionRangeProvider", true}}},
          {"serverInfo", {{"name", "relay"}, {"version", "0.1.0"}}}};
  result["capabilities"].update(editing_capabilities());
  return result;
}

void Server::publish_diagnostics(const std::string& uri) {
  const Document& doc = docs_.at(uri);
  auto r = check_with_progress(doc);
  if (!r) return;  // a newer edit arrived: the next batch publishes
  notify("textDocument/publishDiagnostics",
         {{"uri", uri}, {"version", doc.version}, {"diagnostics", diagnostics_json(*r, doc, encoding_, error_limit_)}});
}

Server::json Server::hover(const json& params) {
  const Document& doc = document(params);
  auto r = check(doc);
  return hover_json(*r, doc, position_offset(doc, params), encoding_);
}

Server::json Server::formatting(const json& params) {
  const Document& doc = document(params);
  return formatting_json(doc, encoding_);
}

Server::json Server::typed_ir(const json& params) {
  const Document& doc = document(params);
  return {{"text", check(doc)->global_types()}};
}

}  // namespace relay::lsp
