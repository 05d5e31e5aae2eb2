// Tiering: the compiler's implementation of the interpreter's TierUp seam
// (interpreter/eval/tier.h). It counts the calls of each global per argument signature;
// once a signature is hot (`threshold` calls) it is compiled on a background thread while
// the interpreter keeps running, and later calls with that signature run the native code.
// Each function keeps at most `max_signatures` compiled signatures (a polymorphic inline
// cache); past that its other signatures stay interpreted, and the report says so.
//
// Mixed mode: the tensor regions the interpreter finds inside functions it keeps
// interpreting (at_region) are counted, compiled and cached the same way, per region and
// input signature; in eager mode a region compiles when first reached.
//
// What "compile" means is a callback (the graph → loops → LLVM pipeline in practice), so
// this file knows nothing about code generation and is tested with stand-ins.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "compiler/tier/signature.h"
#include "interpreter/eval/tier.h"

namespace relay::jit {

enum class JitMode : uint8_t { Off, Auto, Eager };

struct TierOptions {
  JitMode mode = JitMode::Auto;
  uint64_t threshold = 2;       // calls of a signature before it is compiled (auto)
  size_t max_signatures = 8;    // compiled signatures per function
  bool background = true;       // compile on a worker thread (false: at the hot call)
  // Find a function's code by a hash of its text and its callees' (definition_key.h)
  // instead of by its FuncDef object: an interactive session's module is re-checked at
  // every input, and its compiled code must survive inputs that do not change the
  // function. The front end then calls module_rechecked() after each check.
  bool content_keys = false;
};

// What compiling one (function, signature) produced.
struct CompileOutcome {
  std::unique_ptr<rt::CompiledCall> code;  // null when it stays interpreted
  std::string reason;                      // why not, when `code` is null
  std::vector<std::string> notes;          // for the report: groups, fallbacks to reference kernels
};
using CompileFn = std::function<CompileOutcome(const FuncDef&, const Signature&)>;
using RegionCompileFn = std::function<CompileOutcome(const rt::RegionInfo&, const Signature&)>;
// How a region is named in the report after `region N` (`lines 5-9`); may be empty.
using RegionPlaceFn = std::function<std::string(const rt::RegionInfo&)>;

// One line of `--jit-report`.
struct TierReportEntry {
  std::string function;   // `@main`
  std::string region;     // `region 1 (lines 5-9)` for a tensor region of `function`; empty for the function
  uint32_t region_id = 0; // its number (0: the function)
  std::string signature;  // `(Tensor[(1, 784), float32])`
  enum class State : uint8_t { Counting, Compiling, Native, Interpreted } state;
  double compile_ms = 0;
  uint64_t interpreted_calls = 0, native_calls = 0;
  std::string reason;
  std::vector<std::string> notes;
};

class TieredCompiler final : public rt::TierUp {
 public:
  // Without `compile_region` regions stay interpreted (at_region says no).
  TieredCompiler(TierOptions options, CompileFn compile, RegionCompileFn compile_region = nullptr,
                 RegionPlaceFn place = nullptr);
  ~TieredCompiler() override;
  TieredCompiler(const TieredCompiler&) = delete;
  TieredCompiler& operator=(const TieredCompiler&) = delete;

  rt::CompiledCall* at_call(const FuncDef& def, std::span<const rt::Value> args) override;
  rt::CompiledCall* at_region(const rt::RegionInfo& region, std::span<const rt::Value> inputs) override;
  // Compiles `def` for `args` now (eager mode's entry, tests). Returns whether native code
  // is ready for it.
  bool compile_now(const FuncDef& def, std::span<const rt::Value> args);
  // Waits for background compilations to finish (tests, `--bench` warm-up).
  void drain();
  std::vector<TierReportEntry> report() const;
  std::string describe() const override;
  void module_rechecked() override { keys_.clear(); }
  static std::string format_report(const std::vector<TierReportEntry>& entries);

 private:
  struct Entry;
  struct Function;
  class Counted;
  Entry* find_or_add(Function& fn, const FuncDef& def, const Signature& sig);
  // The key functions_ and regions_ use for `def`: its address, or with content_keys its
  // definition_key (computed once per FuncDef object until module_rechecked()).
  uint64_t key_of(const FuncDef& def);
  Function& function_for(const FuncDef& def);
  rt::CompiledCall* count(Entry& e, uint64_t threshold, bool background);
  void compile(Entry& e);
  void worker();

  TierOptions options_;
  CompileFn compile_;
  RegionCompileFn compile_region_;
  RegionPlaceFn place_;
  // Machine thread only, like keys_.
  std::unordered_map<uint64_t, std::unique_ptr<Function>> functions_;  // by key_of(def)
  std::map<std::pair<uint64_t, uint32_t>, std::unique_ptr<Function>> regions_;  // by (key_of(enclosing), id)
  std::unordered_map<const FuncDef*, uint64_t> keys_;  // content_keys: definition_key memo
  mutable std::mutex mutex_;  // guards the queue and each entry's result fields
  std::condition_variable wake_, idle_;
  std::deque<Entry*> queue_;
  size_t busy_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace relay::jit
