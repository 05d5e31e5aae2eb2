// value_summary and full_text: one line for a value, and the whole value. Numbers are
// written by runtime/print.h (numpy's layout and digits), never formatted here.
#include <algorithm>
#include <limits>
#include <string>

#include "interpreter/inspect/inspect.h"
#include "interpreter/inspect/inspect_internal.h"
#include "interpreter/runtime/print.h"
#include "interpreter/value_print.h"
#include "lang/ops/op_registry.h"
#include "lang/syntax/ast.h"

namespace relay::rt {

namespace inspect_detail {

std::string scalar_text(double v, DataType dtype) { return format_element(NDArray::scalar(v, dtype), 0); }

std::string mean_text(double v, DataType dtype) {
  return scalar_text(v, dtype.is_float() ? dtype : DataType::float_(64));
}

bool has_finite(const TensorStats& s, const NDArray& a) { return a.size() - s.nan - s.inf > 0; }

std::string closure_summary(const ClosureObj& c) {
  switch (c.kind) {
    case ClosureObj::Kind::Function: {
      if (!c.code) return "<closure>";
      std::string out = c.code->name + "(";  // `@main`, `%f`, or `fn` when anonymous
      if (c.code->fn)
        for (size_t i = 0; i < c.code->fn->params.size(); ++i)
          out += (i ? ", %" : "%") + std::string(c.code->fn->params[i]->name);
      return out + ")";
    }
    case ClosureObj::Kind::Op: return c.op ? std::string(c.op->name) : "<operator>";
    case ClosureObj::Kind::Ctor: return c.ctor ? std::string(c.ctor->name) : "<constructor>";
  }
  return "<closure>";
}

}  // namespace inspect_detail

namespace {

using namespace inspect_detail;

constexpr int kMaxDepth = 64;  // nesting a summary descends (each level also costs width)
constexpr const char* kCut = "\u2026";

// numpy's str() of the whole tensor on one line: no summarisation, no wrapping, and the
// line breaks between rows and blocks become single spaces (`[[1 2] [3 4]]`).
std::string one_line(const NDArray& a) {
  PrintOptions o;
  o.threshold = std::numeric_limits<int64_t>::max();
  o.linewidth = 1 << 30;
  const std::string text = format_tensor(a, o);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      out += text[i];
      continue;
    }
    while (i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == ' ')) ++i;
    out += ' ';
  }
  return out;
}

// `min=0.0 max=9.0 mean=4.5`, then `nan=N` and `inf=N` when there are any.
std::string statistics(const NDArray& a) {
  const TensorStats s = tensor_stats(a);
  std::string out;
  if (has_finite(s, a))
    out = "min=" + scalar_text(s.min, a.dtype()) + " max=" + scalar_text(s.max, a.dtype()) +
          " mean=" + mean_text(s.mean, a.dtype());
  if (s.nan) out += (out.empty() ? "" : " ") + std::string("nan=") + std::to_string(s.nan);
  if (s.inf) out += (out.empty() ? "" : " ") + std::string("inf=") + std::to_string(s.inf);
  return out;
}

class SummaryWriter {
 public:
  explicit SummaryWriter(const InspectOptions& o) : options_(o) {}

  std::string top(const Value& v) {
    if (v.is_tensor()) {
      const NDArray a = v.tensor();
      return a.ndim() == 0 || a.size() <= options_.inline_elements ? one_line(a) : statistics(a);
    }
    part(v, 0);
    return std::move(out_);
  }

 private:
  bool full() const { return out_.size() >= options_.summary_width; }

  void part(const Value& v, int depth) {
    if (!v.defined()) {
      out_ += "<undefined>";
      return;
    }
    switch (v.kind()) {
      case ObjectKind::Tensor: nested_tensor(v.tensor()); return;
      case ObjectKind::Closure: out_ += closure_summary(v.closure()); return;
      case ObjectKind::Tuple:
        out_ += '(';
        fields(v.tuple().fields, depth);
        out_ += v.tuple().fields.size() == 1 ? ",)" : ")";
        return;
      case ObjectKind::Ctor:
        out_ += constructor_name(v.ctor());
        if (v.ctor().fields.empty()) return;
        out_ += '(';
        fields(v.ctor().fields, depth);
        out_ += ')';
        return;
      case ObjectKind::Ref:
        out_ += "ref(";
        fields({&v.ref().value, 1}, depth);
        out_ += ')';
        return;
    }
  }

  // Every field while there is room; the rest as one `…`. A deep value stops at the
  // width too, since every level writes at least its opening bracket.
  void fields(std::span<const Value> values, int depth) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (i) out_ += ", ";
      if (full() || depth >= kMaxDepth) {
        out_ += kCut;
        return;
      }
      part(values[i], depth + 1);
    }
  }

  // Inside another value a tensor shows its numbers only when they are few and fit;
  // otherwise its type (reading a large tensor for a parent's one line is not worth it).
  void nested_tensor(const NDArray& a) {
    if (a.ndim() == 0) {
      out_ += format_element(a, 0);
      return;
    }
    if (a.size() <= options_.inline_elements) {
      std::string numbers = one_line(a);
      if (out_.size() + numbers.size() <= options_.summary_width) {
        out_ += numbers;
        return;
      }
    }
    out_ += tensor_type_text(a);
  }

  const InspectOptions& options_;
  std::string out_;
};

}  // namespace

std::string constructor_name(const CtorObj& c) { return c.ctor ? std::string(c.ctor->name) : "<constructor>"; }

std::string value_summary(const Value& v, const InspectOptions& options) { return SummaryWriter(options).top(v); }

std::string full_text(const Value& v) {
  PrintOptions o;
  o.threshold = std::numeric_limits<int64_t>::max();  // every element
  o.precision = 17;  // numpy's 'maxprec': the shortest digits that round-trip, up to float64's 17
  return format_value(v, o);
}

}  // namespace relay::rt
