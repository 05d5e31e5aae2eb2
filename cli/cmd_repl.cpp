// `relay repl`: the interactive session on a terminal (libedit line editing, history,
// tab completion, multi-line input, Ctrl-C to interrupt), or a script runner when
// standard input is not a terminal: each complete input is run in order and its results
// printed without prompts or colour; the exit status is 1 when any input failed.
#include <editline/readline.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "cli/commands.h"
#include "compiler/pipeline/compile_function.h"
#include "cli/repl_output.h"
#include "repl/session.h"

namespace relay::cli {

namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_repl_sigint(int) { g_interrupted.store(true); }

// State the libedit callbacks need (they take no user pointer).
repl::Session* g_session = nullptr;
std::string g_pending;  // earlier lines of the input being typed
std::string g_indent;   // inserted at the start of a continuation line

void repl_usage(FILE* out) {
  std::fprintf(out,
               "usage: relay repl [FILE...] [--check-numerics] [--viz-dir DIR] [--color=auto|always|never]\n"
               "\n"
               "An interactive Relay session. FILEs are loaded first (as with `:load`).\n"
               "On a terminal: line editing, history (in $XDG_STATE_HOME/relay/history), Tab completion;\n"
               "an input continues over several lines while it is incomplete; Ctrl-C interrupts an\n"
               "evaluation, Ctrl-D exits. When standard input is not a terminal, it is run as a script:\n"
               "results are printed without prompts or colour and the exit status is 1 if any input failed.\n"
               "  --check-numerics  start with `:set check-numerics on`\n"
               "  --viz-dir DIR     where `:viz NAME` writes NAME.svg (default: the current directory)\n"
               "Type `:help` in the session for its commands.\n");
}

std::string history_path() {
  std::string dir;
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state) dir = state;
  else if (const char* home = std::getenv("HOME"); home && *home) dir = std::string(home) + "/.local/state";
  else return "";
  // Create the directories one level at a time (mkdir -p).
  std::string path = dir + "/relay";
  for (size_t i = 1; i <= path.size(); ++i)
    if (i == path.size() || path[i] == '/') mkdir(path.substr(0, i).c_str(), 0700);
  return path + "/history";
}

char* dup_cstr(const std::string& s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

// libedit hands us the word before the cursor as [start, end) of the current line; the
// session's completion replaces [replace_begin, cursor) of the whole input. Candidates are
// rewritten to replace libedit's word instead.
char** complete_word(const char* text, int start, int /*end*/) {
  rl_attempted_completion_over = 1;  // never fall back to file names
  std::string line(rl_line_buffer, rl_end);
  std::string input = g_pending + line;
  uint32_t cursor = static_cast<uint32_t>(g_pending.size() + rl_point);
  uint32_t word_begin = static_cast<uint32_t>(g_pending.size() + start);
  auto result = g_session->complete(input, cursor);
  std::vector<std::string> candidates;
  for (const auto& item : result.items) {
    std::string insert = item.snippet || item.insert_text.empty() ? item.label : item.insert_text;
    std::string match;
    if (result.replace_begin >= word_begin) {
      match = input.substr(word_begin, result.replace_begin - word_begin) + insert;
    } else {
      std::string cut = input.substr(result.replace_begin, word_begin - result.replace_begin);
      if (!insert.starts_with(cut)) continue;
      match = insert.substr(cut.size());
    }
    if (match.starts_with(text) && std::find(candidates.begin(), candidates.end(), match) == candidates.end())
      candidates.push_back(match);
  }
  if (candidates.empty()) return nullptr;
  // matches[0] is what replaces the word now: the candidates' common prefix.
  std::string common = candidates.front();
  for (const auto& c : candidates) {
    size_t n = 0;
    while (n < common.size() && n < c.size() && common[n] == c[n]) ++n;
    common.resize(n);
  }
  char** matches = static_cast<char**>(std::malloc((candidates.size() + 2) * sizeof(char*)));
  matches[0] = dup_cstr(candidates.size() == 1 ? candidates.front() : common);
  for (size_t i = 0; i < candidates.size(); ++i) matches[i + 1] = dup_cstr(candidates[i]);
  matches[candidates.size() + 1] = nullptr;
  return matches;
}

int insert_indent() {
  if (!g_indent.empty()) rl_insert_text(g_indent.c_str());
  return 0;
}

bool run_input(repl::Session& session, const std::string& input, const ReplOutputOptions& out, bool* quit) {
  g_interrupted.store(false);
  repl::ExecResult result = session.execute(input);
  const bool printed = print_result(session, result, out);
  if (result.quit) *quit = true;
  return result.ok && printed;
}

int run_terminal(repl::Session& session, const ReplOutputOptions& out) {
  g_session = &session;
  rl_attempted_completion_function = complete_word;
  rl_completer_word_break_characters = const_cast<char*>(" \t\n\"(),;=[]{}+-*/<>");
  rl_completion_append_character = '\0';
  rl_startup_hook = insert_indent;
  std::string history = history_path();
  stifle_history(2000);
  if (!history.empty()) read_history(history.c_str());
  std::printf("relay 0.1.0 interactive session: `:help` for commands, Ctrl-D to leave\n");
  // The prompts are coloured; \1 ... \2 tell libedit the escape codes take no columns.
  const char* prompt = out.color ? "\1\x1b[1;32m\2relay>\1\x1b[0m\2 " : "relay> ";
  const char* more = out.color ? "\1\x1b[2m\2  ...>\1\x1b[0m\2 " : "  ...> ";
  bool quit = false;
  while (!quit) {
    g_interrupted.store(false);
    char* raw = readline(g_pending.empty() ? prompt : more);
    if (!raw) {
      if (g_interrupted.load()) {  // Ctrl-C while typing: drop the input, keep going
        std::printf("\n");
        g_pending.clear();
        g_indent.clear();
        continue;
      }
      std::printf("\n");
      break;  // Ctrl-D
    }
    std::string line = raw;
    std::free(raw);
    std::string input = g_pending + line;
    auto status = session.is_complete(input);
    if (status.status == repl::Completeness::Incomplete) {
      g_pending = input + "\n";
      g_indent = status.indent;
      continue;
    }
    g_pending.clear();
    g_indent.clear();
    if (input.find_first_not_of(" \t\n") == std::string::npos) continue;
    add_history(input.c_str());
    if (!history.empty()) write_history(history.c_str());
    run_input(session, input, out, &quit);
  }
  return kExitOk;
}

int run_script(repl::Session& session, const ReplOutputOptions& out) {
  bool all_ok = true, quit = false;
  std::string pending, line;
  while (!quit && std::getline(std::cin, line)) {
    pending += line + "\n";
    if (session.is_complete(pending).status == repl::Completeness::Incomplete) continue;
    if (pending.find_first_not_of(" \t\n") != std::string::npos) all_ok &= run_input(session, pending, out, &quit);
    pending.clear();
  }
  // An input still open at the end of the script runs as it is (and reports what is missing).
  if (!quit && pending.find_first_not_of(" \t\n") != std::string::npos) all_ok &= run_input(session, pending, out, &quit);
  return all_ok ? kExitOk : kExitErrors;
}

}  // namespace

int cmd_repl(const Args& args) {
  repl::SessionOptions options;
  ReplOutputOptions out;
  std::string color = "auto";
  std::vector<std::string> files;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      repl_usage(stdout);
      return kExitOk;
    } else if (a == "--check-numerics") {
      options.check_numerics = true;
    } else if (a == "--viz-dir") {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "error: `--viz-dir` needs a directory\n");
        return kExitUsage;
      }
      out.viz_dir = args[++i];
    } else if (a.starts_with("--color=")) {
      color = a.substr(8);
      if (color != "auto" && color != "always" && color != "never") {
        std::fprintf(stderr, "error: `--color` takes auto, always or never\n");
        return kExitUsage;
      }
    } else if (a.size() > 1 && a[0] == '-') {
      std::fprintf(stderr, "error: unknown option `%s`\n\n", a.c_str());
      repl_usage(stderr);
      return kExitUsage;
    } else {
      files.push_back(a);
    }
  }
  bool terminal = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  out.color = color == "always" || (color == "auto" && terminal && !std::getenv("NO_COLOR"));

  repl::Session session(options);
  session.set_interrupt_flag(&g_interrupted);
  auto jit = compiler::JitRuntime::for_session([&session](const FuncDef* d) { return session.types_of(d); });
  session.set_tier(&jit->tier());
  // SIGINT only sets a flag: the machine stops at its next step and the session stays.
  struct sigaction sa {};
  sa.sa_handler = on_repl_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);

  bool loaded_ok = true;
  bool quit = false;
  for (const auto& f : files) loaded_ok &= run_input(session, ":load " + f, out, &quit);
  if (terminal) return run_terminal(session, out);
  int status = run_script(session, out);
  return loaded_ok ? status : kExitErrors;
}

}  // namespace relay::cli
