#include "compiler/tier/tiered_compiler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "compiler/tier/definition_key.h"

namespace relay::jit {

// A compiled signature's code, counting for the report the calls it answered and those
// the interpreter took after all (declined, or replayed after a run-time error).
class TieredCompiler::Counted final : public rt::CompiledCall {
 public:
  explicit Counted(std::unique_ptr<rt::CompiledCall> inner) : inner_(std::move(inner)) {}
  rt::Value call(std::span<const rt::Value> args) override {
    try {
      rt::Value out = inner_->call(args);
      ++calls;
      return out;
    } catch (...) {
      ++interpreted;  // the machine replays it
      throw;
    }
  }
  bool takes_next_call() override {
    if (inner_->takes_next_call()) return true;
    ++interpreted;
    return false;
  }
  std::vector<std::string> run_notes() const override { return inner_->run_notes(); }
  uint64_t calls = 0, interpreted = 0;

 private:
  std::unique_ptr<rt::CompiledCall> inner_;
};

struct TieredCompiler::Entry {
  const FuncDef* def;
  // A region's own copy of its description: the compile worker reads it, and the
  // interpreter's copy belongs to a Program that may go away first.
  std::unique_ptr<rt::RegionInfo> region;
  Signature sig;
  uint64_t interpreted = 0;
  // Published by the worker under the mutex; read lock-free by the machine once `ready`.
  std::atomic<int> state{static_cast<int>(TierReportEntry::State::Counting)};
  std::unique_ptr<Counted> code;
  double compile_ms = 0;
  std::string reason;
  std::vector<std::string> notes;
};

struct TieredCompiler::Function {
  std::string name;    // the global's name, for the report (its FuncDef may be gone)
  std::string region;  // a region's name in the report
  uint32_t region_id = 0;
  std::vector<std::unique_ptr<Entry>> entries;
  Entry* last = nullptr;  // most calls repeat the previous signature
  bool over_bound = false;
};

TieredCompiler::TieredCompiler(TierOptions options, CompileFn compile, RegionCompileFn compile_region,
                               RegionPlaceFn place)
    : options_(options), compile_(std::move(compile)), compile_region_(std::move(compile_region)),
      place_(std::move(place)) {
  if (options_.background && options_.mode != JitMode::Off) thread_ = std::thread([this] { worker(); });
}

TieredCompiler::~TieredCompiler() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

TieredCompiler::Entry* TieredCompiler::find_or_add(Function& fn, const FuncDef& def, const Signature& sig) {
  Entry* found = fn.last && fn.last->sig == sig ? fn.last : nullptr;
  for (size_t i = 0; !found && i < fn.entries.size(); ++i)
    if (fn.entries[i]->sig == sig) found = fn.last = fn.entries[i].get();
  if (found) {
    // Not yet compiling: compile the newest object that reached it (with content_keys an
    // older FuncDef may be freed by then). A queued entry is Compiling, so the worker
    // never sees this store.
    if (found->state.load(std::memory_order_relaxed) == static_cast<int>(TierReportEntry::State::Counting))
      found->def = &def;
    return found;
  }
  auto e = std::make_unique<Entry>();
  e->def = &def;
  e->sig = sig;
  if (fn.entries.size() >= options_.max_signatures) {
    e->state = static_cast<int>(TierReportEntry::State::Interpreted);
    e->reason = "more than " + std::to_string(options_.max_signatures) +
                " argument signatures: the others stay interpreted";
  }
  fn.entries.push_back(std::move(e));
  return fn.last = fn.entries.back().get();
}

uint64_t TieredCompiler::key_of(const FuncDef& def) {
  if (!options_.content_keys) return reinterpret_cast<uintptr_t>(&def);
  auto [it, added] = keys_.try_emplace(&def, 0);
  if (added) it->second = definition_key(def);
  return it->second;
}

TieredCompiler::Function& TieredCompiler::function_for(const FuncDef& def) {
  auto& fn = functions_[key_of(def)];
  if (!fn) {
    fn = std::make_unique<Function>();
    fn->name = std::string(def.name);
  }
  return *fn;
}

rt::CompiledCall* TieredCompiler::at_call(const FuncDef& def, std::span<const rt::Value> args) {
  if (options_.mode == JitMode::Off) return nullptr;
  auto sig = signature_of(args);
  if (!sig) return nullptr;
  return count(*find_or_add(function_for(def), def, *sig), options_.threshold, options_.background);
}

rt::CompiledCall* TieredCompiler::at_region(const rt::RegionInfo& region, std::span<const rt::Value> inputs) {
  if (options_.mode == JitMode::Off || !compile_region_ || !region.enclosing) return nullptr;
  auto sig = signature_of(inputs);
  if (!sig) return nullptr;
  auto& fn = regions_[{key_of(*region.enclosing), region.id}];
  if (!fn) {
    fn = std::make_unique<Function>();
    fn->name = std::string(region.enclosing->name);
    std::string place = place_ ? place_(region) : std::string();
    fn->region = "region " + std::to_string(region.id) + (place.empty() ? "" : " (" + place + ")");
    fn->region_id = region.id;
  }
  Entry* e = find_or_add(*fn, *region.enclosing, *sig);
  // Until it compiles, an entry follows the newest objects that reached it (with
  // content_keys an older FuncDef and its AST may be freed by then).
  if (!e->region || e->state.load() == static_cast<int>(TierReportEntry::State::Counting))
    e->region = std::make_unique<rt::RegionInfo>(region);
  // Eager: a region compiles where it is first reached, before its bindings would run.
  if (options_.mode == JitMode::Eager) return count(*e, 1, false);
  return count(*e, options_.threshold, options_.background);
}

rt::CompiledCall* TieredCompiler::count(Entry& entry, uint64_t threshold, bool background) {
  Entry* e = &entry;
  using State = TierReportEntry::State;
  const auto state = static_cast<State>(e->state.load(std::memory_order_acquire));
  if (state == State::Native) return e->code.get();
  ++e->interpreted;  // this call, unless it is compiled on the spot below
  if (state == State::Counting && e->interpreted >= threshold) {
    e->state = static_cast<int>(State::Compiling);
    if (background) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back(e);
      }
      wake_.notify_one();
    } else {
      compile(*e);
      if (e->state.load() == static_cast<int>(State::Native)) {
        --e->interpreted;
        return e->code.get();
      }
    }
  }
  return nullptr;
}

bool TieredCompiler::compile_now(const FuncDef& def, std::span<const rt::Value> args) {
  auto sig = signature_of(args);
  if (!sig) return false;
  Entry* e = find_or_add(function_for(def), def, *sig);
  using State = TierReportEntry::State;
  if (e->state.load() == static_cast<int>(State::Counting)) {
    e->state = static_cast<int>(State::Compiling);
    compile(*e);
  }
  drain();
  return e->state.load() == static_cast<int>(State::Native);
}

void TieredCompiler::compile(Entry& e) {
  auto t0 = std::chrono::steady_clock::now();
  CompileOutcome out;
  try {
    out = e.region ? compile_region_(*e.region, e.sig) : compile_(*e.def, e.sig);
  } catch (const std::exception& ex) {
    out.reason = std::string("the compiler failed: ") + ex.what();
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::lock_guard<std::mutex> lock(mutex_);
  e.compile_ms = ms;
  e.notes = std::move(out.notes);
  if (out.code) {
    e.code = std::make_unique<Counted>(std::move(out.code));
    e.state.store(static_cast<int>(TierReportEntry::State::Native), std::memory_order_release);
  } else {
    e.reason = out.reason.empty() ? "not compiled" : out.reason;
    e.state.store(static_cast<int>(TierReportEntry::State::Interpreted), std::memory_order_release);
  }
}

void TieredCompiler::worker() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    Entry* e = queue_.front();
    queue_.pop_front();
    ++busy_;
    lock.unlock();
    compile(*e);
    lock.lock();
    --busy_;
    if (queue_.empty() && busy_ == 0) idle_.notify_all();
  }
}

void TieredCompiler::drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return (queue_.empty() && busy_ == 0) || stop_ || !thread_.joinable(); });
}

std::vector<TierReportEntry> TieredCompiler::report() const {
  std::vector<TierReportEntry> out;
  std::lock_guard<std::mutex> lock(mutex_);
  auto add = [&](const Function* fn) {
    for (const auto& e : fn->entries) {
      TierReportEntry r;
      r.function = "@" + fn->name;
      r.region = fn->region;
      r.region_id = fn->region_id;
      r.signature = e->sig.to_string();
      r.state = static_cast<TierReportEntry::State>(e->state.load());
      r.compile_ms = e->compile_ms;
      r.interpreted_calls = e->interpreted + (e->code ? e->code->interpreted : 0);
      r.native_calls = e->code ? e->code->calls : 0;
      r.reason = e->reason;
      r.notes = e->notes;
      if (e->code)
        for (std::string& n : e->code->run_notes()) r.notes.push_back(std::move(n));
      out.push_back(std::move(r));
    }
  };
  for (const auto& [key, fn] : functions_) add(fn.get());
  for (const auto& [key, fn] : regions_) add(fn.get());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    if (a.function != b.function) return a.function < b.function;
    if (a.region_id != b.region_id) return a.region_id < b.region_id;
    return a.signature < b.signature;
  });
  return out;
}

std::string TieredCompiler::describe() const {
  auto entries = report();
  return entries.empty() ? "  nothing was hot enough to compile\n" : format_report(entries);
}

std::string TieredCompiler::format_report(const std::vector<TierReportEntry>& entries) {
  std::string out;
  for (const TierReportEntry& e : entries) {
    const char* state = e.state == TierReportEntry::State::Native        ? "native"
                        : e.state == TierReportEntry::State::Compiling   ? "compiling"
                        : e.state == TierReportEntry::State::Interpreted ? "interpreted"
                                                                         : "counting";
    char line[160];
    std::snprintf(line, sizeof line, "  %-11s calls: %llu native, %llu interpreted", state,
                  static_cast<unsigned long long>(e.native_calls), static_cast<unsigned long long>(e.interpreted_calls));
    // A model's @main takes every weight: keep the line readable.
    std::string sig = e.signature;
    if (sig.size() > 160) sig = sig.substr(0, 150) + "…, " + std::to_string(std::count(sig.begin(), sig.end(), ']')) + " tensors)";
    out += e.function + (e.region.empty() ? "" : " " + e.region + " ") + sig + "\n" + line;
    if (e.state == TierReportEntry::State::Native) {
      char ms[48];
      std::snprintf(ms, sizeof ms, "; compiled in %.1f ms", e.compile_ms);
      out += ms;
    }
    out += "\n";
    if (!e.reason.empty()) out += "  why: " + e.reason + "\n";
    for (const std::string& n : e.notes) out += "  " + n + "\n";
  }
  return out;
}

}  // namespace relay::jit
