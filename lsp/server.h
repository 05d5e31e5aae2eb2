// `relay lsp`: a Language Server Protocol 3.17 server over stdio. A thin layer: every
// answer comes from the core (the checking database, the types side table, the operator
// registry, the printer); this file only translates between JSON and that core.
//
// Scheduling: messages are read in batches (everything the client has sent so far), then
// handled in order. That gives debouncing for free (diagnostics are published once per
// batch for the documents it changed), lets `$/cancelRequest` cancel a request that is
// still queued, and lets a request overtaken by an edit of its document in the same batch
// answer ContentModified instead of a stale result.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ide/symbols.h"
#include "lang/types/database.h"
#include "lsp/documents.h"
#include "lsp/features.h"
#include "protocol/framing.h"

namespace relay::lsp {

class Server {
 public:
  explicit Server(protocol::FramedStream& transport);
  // Runs until `exit`; returns the process exit code (0 after `shutdown`, 1 otherwise).
  int run();

 private:
  using json = nlohmann::json;
  // Writes a message; text that is not valid UTF-8 (a name in a diagnostic, a path) is
  // sent with U+FFFD rather than failing to serialise.
  void send(const json& msg);
  void notify(const std::string& method, json params);
  // The byte offset of `params.position` in `doc`.
  uint32_t position_offset(const Document& doc, const json& params) const;
  // `later`: the rest of the batch (a later cancel or edit overtakes this message).
  void handle(const json& msg, std::span<const json> later);
  json dispatch_request(const std::string& method, const json& params);
  void dispatch_notification(const std::string& method, const json& params);
  void respond(const json& id, json result);
  void respond_error(const json& id, int code, const std::string& message);
  void publish_diagnostics(const std::string& uri);

  json initialize(const json& params);
  json hover(const json& params);
  json formatting(const json& params);
  json typed_ir(const json& params);
  // Navigation and structure requests (server_navigation.cpp); nullopt for other methods.
  std::optional<json> navigation_request(const std::string& method, const json& params);

  // ---- editing features (lsp/server_editing.cpp) ----
  json completion(const json& params);
  json completion_resolve(const json& params);
  json signature_help(const json& params);
  json semantic_tokens_full(const json& params);
  json semantic_tokens_delta(const json& params);
  json inlay_hints(const json& params);
  json code_actions(const json& params);
  json range_formatting(const json& params);
  // db_.check with work-done progress once it runs past ~200 ms (when the client
  // supports it); records the last check without errors for completion.
  std::shared_ptr<const FileCheck> check_with_progress(const Document& doc);
  struct TokensResult {
    std::string id;
    std::vector<uint32_t> data;
  };
  std::map<std::string, TokensResult> tokens_;                         // by uri: the last result
  std::map<std::string, std::shared_ptr<const FileCheck>> last_good_;  // by uri
  uint64_t tokens_serial_ = 0, progress_serial_ = 0;
  bool work_done_progress_ = false;  // the client advertised window.workDoneProgress
  // Work-done progress tokens: LSP 3.17 lets a server use a token it created only once
  // the client has answered `window/workDoneProgress/create`. The server is busy (and
  // reads nothing) while it checks, so it asks for the next token ahead of time.
  void request_progress_token();
  void on_client_response(const json& msg);
  std::map<std::string, std::string> pending_tokens_;  // request id -> token
  std::deque<std::string> ready_tokens_;               // confirmed by the client
  // ---- end of editing features ----

  // The symbol index of `doc`'s check `check`, kept until the document is checked again.
  const ide::SymbolIndex& symbol_index(const Document& doc, const std::shared_ptr<const FileCheck>& check);
  std::map<std::string, std::pair<std::shared_ptr<const FileCheck>, std::shared_ptr<const ide::SymbolIndex>>>
      symbols_;  // by uri

  Document& document(const json& params);  // throws for an unknown document
  std::shared_ptr<const FileCheck> check(const Document& doc);

  protocol::FramedStream& transport_;
  CheckDatabase db_;
  std::map<std::string, Document> docs_;  // by uri
  std::set<std::string> dirty_;           // documents whose diagnostics are out of date
  PositionEncoding encoding_ = PositionEncoding::Utf16;
  size_t error_limit_ = kDefaultLspErrorLimit;  // initializationOptions.errorLimit; 0: none
  bool initialized_ = false, shutdown_ = false, exit_ = false;
};

// JSON-RPC error codes used here.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;
constexpr int kServerNotInitialized = -32002;
constexpr int kRequestCancelled = -32800;
constexpr int kContentModified = -32801;

}  // namespace relay::lsp
