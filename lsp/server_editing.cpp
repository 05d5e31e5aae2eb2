// Server methods for the editing features (lsp/editing.h does the JSON; ide/ the work),
// the per-document state they keep (the last semantic-tokens result, the last check
// without errors), and work-done progress around long checks.
#include <chrono>

#include "lsp/editing.h"
#include "lsp/features.h"
#include "lsp/server.h"

namespace relay::lsp {

void Server::request_progress_token() {
  std::string token = "relay-check-" + std::to_string(++progress_serial_);
  std::string id = "create-" + token;
  pending_tokens_[id] = token;
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "window/workDoneProgress/create"}, {"params", {{"token", token}}}});
}

void Server::on_client_response(const json& msg) {
  if (!msg["id"].is_string()) return;
  auto it = pending_tokens_.find(msg["id"].get<std::string>());
  if (it == pending_tokens_.end()) return;
  // A refused token (an error response) is dropped; progress is then not reported.
  if (!msg.contains("error")) ready_tokens_.push_back(it->second);
  pending_tokens_.erase(it);
}

std::shared_ptr<const FileCheck> Server::check_with_progress(const Document& doc) {
  using clock = std::chrono::steady_clock;
  std::string token;
  // Outside the `if`: the hook below refers to it while the database checks.
  const auto start = clock::now();
  if (work_done_progress_) {
    // The database calls the hook before each definition it infers: once the check has
    // run for 200 ms, announce it with a token the client has confirmed. A cached check
    // never calls it and reports nothing.
    db_.set_progress_hook([&] {
      if (!token.empty() || ready_tokens_.empty() || clock::now() - start < std::chrono::milliseconds(200)) return;
      token = ready_tokens_.front();
      ready_tokens_.pop_front();
      notify("$/progress", {{"token", token},
                            {"value",
                             {{"kind", "begin"}, {"title", "Checking"}, {"message", doc.path}, {"cancellable", false}}}});
    });
  }
  auto r = db_.check(doc.path);
  if (work_done_progress_) db_.set_progress_hook(nullptr);
  if (!token.empty()) {
    notify("$/progress", {{"token", token}, {"value", {{"kind", "end"}}}});
    request_progress_token();  // a token ends with its progress: ask for the next one
  }
  if (r && r->error_count() == 0) last_good_[doc.uri] = r;
  return r;
}

Server::json Server::completion(const json& params) {
  const Document& doc = document(params);
  auto r = check(doc);
  auto good = last_good_.find(doc.uri);
  return completion_json(*r, good == last_good_.end() ? nullptr : good->second.get(), doc,
                         position_offset(doc, params), encoding_);
}

Server::json Server::completion_resolve(const json& params) {
  if (!params.is_object() || !params.contains("label") || !params["label"].is_string())
    throw BadParams("completionItem/resolve takes a completion item (an object with its `label`)");
  // A global's documentation comes from the check of the document the item was made for.
  std::shared_ptr<const FileCheck> r;
  if (params.contains("data") && params["data"].is_object()) {
    auto it = docs_.find(params["data"].value("uri", ""));
    if (it != docs_.end()) r = check(it->second);
  }
  return completion_resolve_json(r.get(), params);
}

Server::json Server::signature_help(const json& params) {
  const Document& doc = document(params);
  auto r = check(doc);
  return signature_help_json(*r, doc, position_offset(doc, params));
}

Server::json Server::semantic_tokens_full(const json& params) {
  const Document& doc = document(params);
  TokensResult& t = tokens_[doc.uri];
  t.data = semantic_tokens_data(*check(doc), encoding_);
  t.id = std::to_string(++tokens_serial_);
  return {{"resultId", t.id}, {"data", t.data}};
}

Server::json Server::semantic_tokens_delta(const json& params) {
  const Document& doc = document(params);
  auto it = tokens_.find(doc.uri);
  // An unknown previous result (another session's, or already replaced): answer in full.
  if (it == tokens_.end() || params.value("previousResultId", "") != it->second.id) return semantic_tokens_full(params);
  std::vector<uint32_t> data = semantic_tokens_data(*check(doc), encoding_);
  json edits = semantic_tokens_edits(it->second.data, data);
  it->second.data = std::move(data);
  it->second.id = std::to_string(++tokens_serial_);
  return {{"resultId", it->second.id}, {"edits", std::move(edits)}};
}

Server::json Server::inlay_hints(const json& params) {
  const Document& doc = document(params);
  return inlay_hints_json(*check(doc), doc, params.at("range"), encoding_);
}

Server::json Server::code_actions(const json& params) {
  const Document& doc = document(params);
  return code_actions_json(*check(doc), doc, params, encoding_);
}

Server::json Server::range_formatting(const json& params) {
  const Document& doc = document(params);
  return range_formatting_json(doc, params.at("range"), encoding_);
}

}  // namespace relay::lsp
