// The engine's run control: launching, the observer that decides where to stop
// (breakpoints, steps, pauses, exception filters) and advancing the machine in slices.
// Inspection while stopped is in inspection.cpp.
#include "debugger/debugger.h"

#include "interpreter/eval/closure.h"
#include "interpreter/value_print.h"
#include "lang/base/render.h"
#include "lang/base/source.h"

namespace relay::dbg {

const char* stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::Entry: return "entry";
    case StopReason::Step: return "step";
    case StopReason::Breakpoint: return "breakpoint";
    case StopReason::FunctionBreakpoint: return "function breakpoint";
    case StopReason::Exception: return "exception";
    case StopReason::Pause: return "pause";
  }
  return "step";
}

const std::vector<std::pair<std::string, std::string>>& Debugger::exception_filters() {
  static const std::vector<std::pair<std::string, std::string>> filters = {
      {"nan", "NaN produced (an operator turned finite inputs into NaN)"},
      {"inf", "Inf produced (an operator turned finite inputs into +Inf or -Inf)"},
      {"runtime-error", "Run-time errors"},
  };
  return filters;
}

// The observer: everything that decides whether the program stops runs here, between
// two steps of the machine. The checks a step without breakpoints or stepping pays are
// a few flag tests.
class Debugger::Watcher final : public rt::Observer {
 public:
  explicit Watcher(Debugger& d) : d_(d) {}

  void before(rt::Machine& m, const rt::Node& n) override {
    Debugger& d = d_;
    if (!n.statement) {
      if (d.column_breakpoints_) check_breakpoints(m, n);
      if (d.step_.mode != StepRequest::Mode::None && d.step_.granularity == Granularity::Instruction &&
          d.state_ == State::Running)
        check_step(m, n);
      return;
    }
    if (d.poll_.load(std::memory_order_relaxed)) {
      d.poll_.store(false, std::memory_order_relaxed);
      if (!d.pause_requested_) m.request_pause();  // hand control back to the front end
    }
    if (d.pause_requested_) {
      d.pause_requested_ = false;
      stop(m, &n, StopReason::Pause, "Paused");
      return;
    }
    if (d.stop_at_next_statement_) {
      StopReason r = *d.stop_at_next_statement_;
      d.stop_at_next_statement_.reset();
      stop(m, &n, r, r == StopReason::Entry ? "Paused on entry" : "Paused on function breakpoint",
           std::move(d.pending_function_bps_));
      d.pending_function_bps_.clear();
      return;
    }
    if (!d.by_node_.empty()) check_breakpoints(m, n);
    if (d.step_.mode != StepRequest::Mode::None && d.state_ == State::Running) check_step(m, n);
  }

  void before_op(rt::Machine& m, const CallExpr* site, const OpInfo& op, std::span<const rt::Value>) override {
    Debugger& d = d_;
    if (d.by_operator_.empty() || d.state_ != State::Running) return;
    auto it = d.by_operator_.find(std::string_view(op.name));
    if (it == d.by_operator_.end()) return;
    std::vector<int> hit;
    for (Breakpoint* bp : it->second)
      if (counts_hit(*bp, m)) hit.push_back(bp->id);
    if (hit.empty()) return;
    if (site) d.stop_span_ = site->span;
    stop(m, nullptr, StopReason::FunctionBreakpoint, "Paused on operator `" + std::string(op.name) + "`",
         std::move(hit));
  }

  void after_op(rt::Machine& m, const CallExpr& site, const OpInfo& op, std::span<const rt::Value> args,
                const rt::Value& result) override {
    Debugger& d = d_;
    if (!(d.filter_nan_ || d.filter_inf_) || d.state_ != State::Running) return;
    auto report = rt::numerics_report(site, op, args, result);
    if (!report) return;
    const bool nan = d.filter_nan_ && report->nan > 0, inf = d.filter_inf_ && report->inf > 0;
    if (!nan && !inf) return;
    ExceptionInfo info;
    info.id = nan ? "nan" : "inf";
    info.description = "`" + std::string(op.name) + "` produced " + report->produced + " from finite inputs";
    info.details = info.description;
    for (const std::string& note : report->notes) info.details += "\n  " + note;
    std::string stack = "Relay stack, innermost call first:";
    for (const rt::StackEntry& e : m.stack_trace()) stack += "\n  " + e.function;
    info.details += "\n" + stack;
    d.exception_ = info;
    d.stop_span_ = site.span;
    stop(m, nullptr, StopReason::Exception, info.description);
    d.stop_.text = nan ? "NaN produced" : "Inf produced";
  }

  void enter(rt::Machine& m, const rt::FunctionCode& code, const CallExpr* site, bool) override {
    Debugger& d = d_;
    if (d.state_ != State::Running) return;
    if (d.step_.mode == StepRequest::Mode::Target && site == d.step_.target)
      d.step_.mode = StepRequest::Mode::Statement;
    if (d.by_function_.empty() || !code.fn) return;
    auto it = d.by_function_.find(code.fn);
    if (it == d.by_function_.end()) return;
    for (Breakpoint* bp : it->second)
      if (counts_hit(*bp, m)) d.pending_function_bps_.push_back(bp->id);
    if (!d.pending_function_bps_.empty()) d.stop_at_next_statement_ = StopReason::FunctionBreakpoint;
  }

  void leave(rt::Machine& m, const rt::FunctionCode& code, const CallExpr*, const rt::Value& result) override {
    Debugger& d = d_;
    if (d.step_.mode == StepRequest::Mode::Out && m.depth() < d.step_.depth && !d.return_value_) {
      d.return_value_ = result;
      d.return_name_ = code.name;
    }
  }

 private:
  // A breakpoint's condition and hit count; log points write their line and never stop.
  bool counts_hit(Breakpoint& bp, rt::Machine& m) {
    if (bp.condition && !d_.condition_holds(bp, m)) return false;
    ++bp.hits;
    if (bp.hit_condition && !bp.hit_condition->matches(bp.hits)) return false;
    if (bp.log) {
      Output o{"console", d_.log_line(bp, m) + "\n", bp.pos};
      d_.output_.push_back(std::move(o));
      return false;
    }
    return true;
  }

  void check_breakpoints(rt::Machine& m, const rt::Node& n) {
    auto it = d_.by_node_.find(&n);
    if (it == d_.by_node_.end() || d_.state_ != State::Running) return;
    std::vector<int> hit;
    for (Breakpoint* bp : it->second)
      if (counts_hit(*bp, m)) hit.push_back(bp->id);
    if (!hit.empty()) stop(m, &n, StopReason::Breakpoint, "Paused on breakpoint", std::move(hit));
  }

  void check_step(rt::Machine& m, const rt::Node& n) {
    const StepRequest& s = d_.step_;
    using Mode = StepRequest::Mode;
    bool now = false;
    switch (s.mode) {
      case Mode::None:
      case Mode::Target: break;
      case Mode::In:
      case Mode::Statement: now = true; break;
      case Mode::Over:
        now = m.depth() < s.depth || (m.depth() == s.depth && m.frame_info(0).serial == s.serial);
        break;
      case Mode::Out: now = m.depth() < s.depth; break;
    }
    if (now) stop(m, &n, StopReason::Step, "Paused after a step");
  }

  void stop(rt::Machine& m, const rt::Node* n, StopReason reason, std::string description,
            std::vector<int> bps = {}) {
    d_.stop_node_ = n;
    d_.stop_now(reason, std::move(description), std::move(bps));
    m.request_pause();
  }

  Debugger& d_;
};

Debugger::Debugger() = default;
Debugger::~Debugger() = default;

bool Debugger::launch(const LaunchConfig& config, std::string* error) {
  std::string text;
  if (!read_text_file(config.program, &text, error)) return false;
  rt::EntryInputs inputs;
  inputs.files = config.args;
  inputs.random_seed = config.random_seed;
  return load(config, std::move(text), &inputs, nullptr, error);
}

bool Debugger::load(const LaunchConfig& config, std::string text, const rt::EntryInputs* inputs,
                    const std::atomic<bool>* interrupt, std::string* error) {
  config_ = config;
  // A new run (launch or restart): nothing of the last one's stop, error or step survives.
  clear_stop();
  stopped_on_error_ = false;
  error_.reset();
  step_ = {};
  pause_requested_ = false;
  stop_at_next_statement_.reset();
  sources_ = std::make_unique<SourceManager>();
  machine_.reset();
  watcher_.reset();
  escaped_.clear();
  map_.reset();
  compiler_.reset();
  loaded_.reset();
  FileId id = sources_->add(config.program, std::move(text));
  DiagnosticBag diags;
  loaded_ = rt::load_program(*sources_, id, config.entry, inputs, diags);
  if (!loaded_) {
    std::string out;
    for (const Diagnostic& d : diags.items())
      if (d.severity == Severity::Error) out += render_diagnostic(d, *sources_, RenderOptions{false});
    *error = out.empty() ? "the program could not be loaded" : out;
    return false;
  }
  map_ = std::make_unique<ProgramMap>(*loaded_->program, *loaded_->front.module, sources_->get(id));
  compiler_ = std::make_unique<ExpressionCompiler>(*sources_, *loaded_);
  machine_ = std::make_unique<rt::Machine>(*loaded_->program);
  machine_->set_max_depth(config.max_depth);
  machine_->set_interrupt_flag(interrupt);
  machine_->set_keep_state_on_error(true);
  watcher_ = std::make_unique<Watcher>(*this);
  machine_->add_observer(watcher_.get());
  if (config.check_numerics) filter_nan_ = filter_inf_ = true;
  state_ = State::Loaded;
  exit_code_ = 0;
  reset_breakpoints();
  return true;
}

void Debugger::start() {
  if (!loaded_) return;
  start_with(std::vector<rt::Value>(loaded_->arguments.begin(), loaded_->arguments.end()));
}

void Debugger::start_with(std::vector<rt::Value> args) {
  if (!machine_ || state_ != State::Loaded) return;
  step_ = {};
  stop_at_next_statement_.reset();
  if (config_.stop_on_entry) stop_at_next_statement_ = StopReason::Entry;
  machine_->start_call(loaded_->program->global(*loaded_->entry), std::move(args));
  state_ = State::Running;
}

bool Debugger::restart(std::string* error) {
  LaunchConfig config = config_;
  auto lines = line_specs_;
  auto functions = function_specs_;
  if (!launch(config, error)) return false;
  set_line_breakpoints(lines);
  set_function_breakpoints(functions);
  start();
  return true;
}

void Debugger::set_exception_filters(const std::set<std::string>& filters, std::vector<std::string>* unknown) {
  filters_ = filters;
  filter_nan_ = filters.count("nan") || config_.check_numerics;
  filter_inf_ = filters.count("inf") || config_.check_numerics;
  filter_error_ = filters.count("runtime-error") > 0;
  if (unknown)
    for (const std::string& f : filters)
      if (f != "nan" && f != "inf" && f != "runtime-error") unknown->push_back(f);
}

void Debugger::stop_now(StopReason reason, std::string description, std::vector<int> bps) {
  state_ = State::Stopped;
  stop_ = Stop{reason, std::move(description), "", std::move(bps)};
  step_ = {};
  stop_at_next_statement_.reset();
}

Debugger::State Debugger::advance(uint64_t budget) {
  if (state_ != State::Running) return state_;
  try {
    auto status = machine_->run_until_pause(budget);
    if (status == rt::Machine::RunStatus::Done) {
      rt::RunOutcome ok;
      ok.value = machine_->result();
      finish_run(ok);
    }
  } catch (const rt::EvalError& e) {
    error_ = e;  // failure(): front ends that report the error themselves (the kernel)
    if (!e.interrupted && filter_error_) {
      stopped_on_error_ = true;
      stop_span_ = e.span;
      stop_node_ = nullptr;
      ExceptionInfo info;
      info.id = "runtime-error";
      info.description = e.what();
      rt::RunOptions options;
      info.details = render_diagnostic(*rt::outcome_of_error(e, nullptr, options, *sources_).error, *sources_,
                                       RenderOptions{false});
      exception_ = info;
      stop_now(StopReason::Exception, std::string("Paused on a run-time error: ") + e.what());
      stop_.text = "Run-time error";
    } else {
      finish_run(rt::outcome_of_error(e, nullptr, rt::RunOptions{}, *sources_));
    }
  }
  return state_;
}

void Debugger::finish_run(const rt::RunOutcome& outcome) {
  state_ = State::Exited;
  exit_code_ = outcome.exit_code();
  if (outcome.value) {
    output_.push_back({"stdout", rt::format_value(*outcome.value) + "\n", std::nullopt});
  } else if (outcome.error) {
    output_.push_back({"stderr", render_diagnostic(*outcome.error, *sources_, RenderOptions{false}), std::nullopt});
  }
}

void Debugger::clear_stop() {
  handles_.clear();
  step_targets_.clear();
  memory_.clear();
  stop_span_.reset();
  stop_node_ = nullptr;
  exception_.reset();
  return_value_.reset();
  stop_.breakpoints.clear();
}

void Debugger::begin_resume() {
  clear_stop();
  state_ = State::Running;
}

void Debugger::resume() {
  if (state_ != State::Stopped) return;
  if (stopped_on_error_) {
    stopped_on_error_ = false;
    finish_run(rt::outcome_of_error(*error_, nullptr, rt::RunOptions{}, *sources_));
    return;
  }
  begin_resume();
  step_ = {};
}

void Debugger::next(Granularity g) {
  if (state_ != State::Stopped) return;
  if (stopped_on_error_) return resume();
  begin_resume();
  step_ = {StepRequest::Mode::Over, g, machine_->depth(), machine_->frame_info(0).serial, nullptr};
}

void Debugger::step_in(Granularity g, std::optional<int64_t> target) {
  if (state_ != State::Stopped) return;
  if (stopped_on_error_) return resume();
  const CallExpr* call = nullptr;
  if (target && *target >= 0 && static_cast<size_t>(*target) < step_targets_.size()) call = step_targets_[*target];
  begin_resume();
  step_ = {call ? StepRequest::Mode::Target : StepRequest::Mode::In, g, machine_->depth(), 0, call};
}

void Debugger::step_out(Granularity g) {
  if (state_ != State::Stopped) return;
  if (stopped_on_error_) return resume();
  begin_resume();
  step_ = {StepRequest::Mode::Out, g, machine_->depth(), 0, nullptr};
}

void Debugger::pause() {
  if (state_ == State::Running) pause_requested_ = true;
}

void Debugger::terminate() {
  if (state_ == State::Exited) return;
  state_ = State::Exited;
  exit_code_ = 130;
  stopped_on_error_ = false;
}

std::vector<Output> Debugger::take_output() { return std::exchange(output_, {}); }

// --- breakpoints -------------------------------------------------------------------------

void Debugger::reset_breakpoints() {
  line_bps_.clear();
  function_bps_.clear();
  by_node_.clear();
  by_function_.clear();
  by_operator_.clear();
  column_breakpoints_ = false;
}

namespace {

// A condition or hit count of only spaces is none, as an empty one is (clients send what
// the user left in the box).
bool is_blank(std::string_view s) { return s.find_first_not_of(" \t\r\n") == std::string_view::npos; }

BreakpointView view_of(const Breakpoint& bp) { return {bp.id, bp.verified, bp.message, bp.pos}; }

}  // namespace

std::vector<BreakpointView> Debugger::set_line_breakpoints(const std::vector<LineBreakpointSpec>& specs) {
  line_specs_ = specs;
  for (auto& [node, list] : by_node_) (void)node, list.clear();
  by_node_.clear();
  line_bps_.clear();
  line_bps_.reserve(specs.size());  // by_node_ points into it
  column_breakpoints_ = false;
  std::vector<BreakpointView> out;
  for (const LineBreakpointSpec& spec : specs) {
    Breakpoint& bp = line_bps_.emplace_back();
    bp.id = next_breakpoint_id_++;
    if (!map_) {
      bp.message = "the program is not loaded";
      out.push_back(view_of(bp));
      continue;
    }
    uint32_t line = spec.line;
    auto points = map_->at_line(line);
    bool has_statement = false;
    for (auto* p : points) has_statement |= p->statement;
    if (!has_statement && !spec.column) {
      uint32_t next = map_->next_statement_line(line);
      if (next == 0) {
        bp.message = "line " + std::to_string(line) + " has no binding or expression to stop at, nor has any line after it";
        out.push_back(view_of(bp));
        continue;
      }
      bp.message = "moved from line " + std::to_string(line) + " to line " + std::to_string(next) +
                   ", the next line with a binding or expression to stop at";
      line = next;
      points = map_->at_line(line);
    }
    const StopPoint* chosen = nullptr;
    for (auto* p : points) {
      if (spec.column) {
        if (p->pos.column == *spec.column) {
          chosen = p;
          break;
        }
        if (p->pos.column > *spec.column && !chosen) chosen = p;
      } else if (p->statement) {
        chosen = p;
        break;
      }
    }
    if (!chosen) {
      bp.message = "no statement or call at line " + std::to_string(line) +
                   (spec.column ? ", column " + std::to_string(*spec.column) + " or after it" : "");
      out.push_back(view_of(bp));
      continue;
    }
    bp.points = {chosen};
    bp.pos = chosen->pos;
    if (!chosen->statement) column_breakpoints_ = true;
    std::string error;
    if (!set_checks(bp, spec.condition, spec.hit_condition, is_blank(spec.condition) ? std::vector<EnvVar>{} : scope_env(*chosen))) {
      out.push_back(view_of(bp));
      continue;
    }
    if (!spec.log_message.empty()) {
      bp.log = parse_log_message(spec.log_message, &error);
      bool ok = bp.log.has_value();
      if (ok) {
        auto env = scope_env(*chosen);
        for (const auto& part : bp.log->parts) {
          if (!part.expression) continue;
          auto e = compiler_->compile(part.text, env, "log message", &error);
          if (!e) {
            ok = false;
            break;
          }
          bp.log_parts.push_back(e);
        }
      }
      if (!ok) {
        bp.log.reset();
        bp.message = error;
        out.push_back(view_of(bp));
        continue;
      }
    }
    bp.verified = true;
    by_node_[chosen->node].push_back(&bp);
    out.push_back(view_of(bp));
  }
  return out;
}

std::vector<BreakpointView> Debugger::set_function_breakpoints(const std::vector<FunctionBreakpointSpec>& specs) {
  function_specs_ = specs;
  by_function_.clear();
  by_operator_.clear();
  function_bps_.clear();
  function_bps_.reserve(specs.size());
  std::vector<BreakpointView> out;
  for (const FunctionBreakpointSpec& spec : specs) {
    Breakpoint& bp = function_bps_.emplace_back();
    bp.id = next_breakpoint_id_++;
    std::string name = spec.name;
    while (!name.empty() && name.back() == ' ') name.pop_back();
    while (!name.empty() && name.front() == ' ') name.erase(0, 1);
    const bool global_syntax = !name.empty() && name[0] == '@';
    if (global_syntax) name.erase(0, 1);
    const FuncDef* global = loaded_ ? loaded_->find_global(name) : nullptr;
    const OpInfo* op = global_syntax ? nullptr : find_op(name);
    std::vector<EnvVar> env;  // what a condition may use: the global's parameters, or
                              // nothing for an operator (its caller's frame varies)
    if (global) {
      bp.kind = Breakpoint::Kind::Global;
      bp.global = global;
      bp.pos = position_of(sources_->get(loaded_->file), global->name_span);
      const InferredTypes* types = loaded_->types.find(global);
      for (const VarDecl* p : global->fn->params) {
        Ty t = types ? types->type_of(p) : nullptr;
        env.push_back({p, t ? type_to_string(t) : ""});
      }
    } else if (op) {
      bp.kind = Breakpoint::Kind::Operator;
      bp.op_name = op->name;
    } else {
      bp.message = "no global `@" + name + "`" + (global_syntax ? "" : " and no operator `" + name + "`") +
                   " in this program";
      out.push_back(view_of(bp));
      continue;
    }
    if (!set_checks(bp, spec.condition, spec.hit_condition, env)) {
      out.push_back(view_of(bp));
      continue;
    }
    bp.verified = true;
    if (global) by_function_[global->fn].push_back(&bp);
    else by_operator_[bp.op_name].push_back(&bp);
    out.push_back(view_of(bp));
  }
  return out;
}

bool Debugger::set_checks(Breakpoint& bp, const std::string& condition, const std::string& hit_condition,
                          const std::vector<EnvVar>& env) {
  std::string error;
  if (!is_blank(condition)) {
    bp.condition = compiler_->compile(condition, env, "condition", &error);
    if (bp.condition && bp.condition->type != "bool") {
      error = "the condition `" + condition + "` has type `" + bp.condition->type + "`, not `bool`";
      bp.condition.reset();
    }
    if (!bp.condition) {
      bp.message = error;
      return false;
    }
  }
  if (!is_blank(hit_condition)) {
    bp.hit_condition = parse_hit_condition(hit_condition, &error);
    if (!bp.hit_condition) {
      bp.message = error;
      return false;
    }
  }
  return true;
}

std::vector<Position> Debugger::breakpoint_locations(uint32_t line, uint32_t end_line) const {
  std::vector<Position> out;
  if (!map_) return out;
  for (const StopPoint* p : map_->in_lines(line, end_line)) out.push_back(p->pos);
  return out;
}

bool Debugger::condition_holds(Breakpoint& bp, rt::Machine&) {
  auto args = frame_args(*bp.condition, 0);
  EvalResult r = compiler_->run(*bp.condition, args, /*pure=*/true, 1'000'000);
  if (!r.value) {
    // Stopping shows the user the problem where it happened; skipping would hide it.
    output_.push_back({"stderr", "breakpoint " + std::to_string(bp.id) + ": the condition failed: " + r.error + "\n",
                       bp.pos});
    return true;
  }
  return r.value->is_tensor() && r.value->tensor().size() == 1 && r.value->tensor().get_int(0) != 0;
}

std::string Debugger::log_line(const Breakpoint& bp, rt::Machine&) {
  std::string out;
  size_t k = 0;
  for (const auto& part : bp.log->parts) {
    if (!part.expression) {
      out += part.text;
      continue;
    }
    const CompiledExpression& e = *bp.log_parts[k++];
    EvalResult r = compiler_->run(e, frame_args(e, 0), /*pure=*/true, 1'000'000);
    out += r.value ? rt::value_summary(*r.value) : "<error: " + r.error + ">";
  }
  return out;
}

}  // namespace relay::dbg
