#include "interpreter/eval/numerics.h"

#include <cmath>
#include <sstream>

#include "interpreter/runtime/dispatch.h"

namespace relay::rt {

namespace {

void collect_tensors(const Value& v, std::vector<NDArray>& out) {
  if (v.is_tensor()) out.push_back(v.tensor());
  else if (v.is_tuple())
    for (const Value& f : v.tuple().fields) collect_tensors(f, out);
}

int64_t non_finite(const NDArray& a) {
  if (!a.dtype().is_float()) return 0;
  return dispatch_dtype(a.dtype(), [&]<class T>(TypeTag<T>) -> int64_t {
    int64_t n = 0;
    if constexpr (is_floating_v<T>) {
      const T* p = a.data<T>();
      for (int64_t i = 0; i < a.size(); ++i) n += !std::isfinite(static_cast<double>(p[i]));
    }
    return n;
  });
}

std::string index_text(const Shape& shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  std::string out = "[";
  for (size_t d = 0; d < idx.size(); ++d) out += (d ? ", " : "") + std::to_string(idx[d]);
  return out + "]";
}

std::string number(double v) {
  std::ostringstream ss;
  ss.precision(8);
  ss << v;
  return ss.str();
}

}  // namespace

bool has_non_finite(const Value& v) {
  std::vector<NDArray> tensors;
  collect_tensors(v, tensors);
  for (const NDArray& t : tensors)
    if (non_finite(t) > 0) return true;
  return false;
}

TensorStats tensor_stats(const NDArray& a) {
  TensorStats s{a.shape(), a.dtype()};
  double sum = 0;
  int64_t finite = 0;
  for (int64_t i = 0; i < a.size(); ++i) {
    double v = a.get_double(i);
    if (std::isnan(v)) { ++s.nan; continue; }
    if (std::isinf(v)) { ++s.inf; continue; }
    if (finite == 0 || v < s.min) s.min = v;
    if (finite == 0 || v > s.max) s.max = v;
    sum += v;
    ++finite;
  }
  s.mean = finite ? sum / static_cast<double>(finite) : 0;
  return s;
}

std::string describe_stats(const TensorStats& s) {
  return "shape " + shape_to_string(s.shape) + ", " + dtype_name(s.dtype) + ", min " + number(s.min) + ", max " +
         number(s.max) + ", mean " + number(s.mean) + ", " + std::to_string(s.nan) + " NaN, " + std::to_string(s.inf) +
         " Inf";
}

std::optional<NumericsReport> numerics_report(const CallExpr& call, const OpInfo& op, std::span<const Value> args,
                                              const Value& result) {
  std::vector<NDArray> outs;
  collect_tensors(result, outs);
  int64_t bad = 0;
  for (const NDArray& o : outs) bad += non_finite(o);
  if (bad == 0) return std::nullopt;
  std::vector<NDArray> ins;
  for (const Value& a : args) collect_tensors(a, ins);
  for (const NDArray& i : ins)
    if (non_finite(i)) return std::nullopt;  // propagated from an input: not where it started
  NumericsReport r;
  r.call = &call;
  r.op = &op;
  int64_t nan = 0, pos = 0, neg = 0;
  const NDArray* first_out = nullptr;
  int64_t first = -1;
  for (const NDArray& o : outs)
    for (int64_t i = 0; i < o.size() && o.dtype().is_float(); ++i) {
      double v = o.get_double(i);
      if (std::isfinite(v)) continue;
      if (std::isnan(v)) ++nan;
      else if (v > 0) ++pos;
      else ++neg;
      if (!first_out) first_out = &o, first = i;
    }
  std::vector<std::string> parts;
  if (nan) parts.push_back(std::to_string(nan) + " NaN");
  if (pos) parts.push_back(std::to_string(pos) + " +Inf");
  if (neg) parts.push_back(std::to_string(neg) + " -Inf");
  for (size_t i = 0; i < parts.size(); ++i) r.produced += (i ? (i + 1 == parts.size() ? " and " : ", ") : "") + parts[i];
  r.produced += bad == 1 ? " value" : " values";
  for (size_t i = 0; i < ins.size(); ++i)
    r.notes.push_back("input " + std::to_string(i + 1) + ": " + describe_stats(tensor_stats(ins[i])));
  const Shape& oshape = first_out->shape();
  std::string at = "first bad element: output" + index_text(oshape, first) + " = " + number(first_out->get_double(first));
  // The input elements it was computed from, for inputs that broadcast to the output.
  std::string from;
  for (size_t i = 0; i < ins.size(); ++i) {
    const Shape& s = ins[i].shape();
    if (s.size() > oshape.size()) continue;
    std::vector<int64_t> idx(oshape.size());
    int64_t flat = first;
    for (size_t d = oshape.size(); d-- > 0;) idx[d] = oshape[d] ? flat % oshape[d] : 0, flat = oshape[d] ? flat / oshape[d] : 0;
    int64_t off = 0;
    bool fits = true;
    const size_t lead = oshape.size() - s.size();
    for (size_t d = 0; d < s.size(); ++d) {
      if (s[d] != 1 && s[d] != oshape[lead + d]) fits = false;
      off = off * s[d] + (s[d] == 1 ? 0 : idx[lead + d]);
    }
    if (!fits || ins[i].size() == 0) continue;
    from += (from.empty() ? "" : ", ") + std::string("input ") + std::to_string(i + 1) + " = " + number(ins[i].get_double(off));
  }
  if (!from.empty()) at += ", computed from " + from;
  r.notes.push_back(at);
  r.nan = nan;
  r.inf = pos + neg;
  return r;
}

void NumericsChecker::after_op(Machine&, const CallExpr& call, const OpInfo& op, std::span<const Value> args,
                               const Value& result) {
  ++checked_;
  report_ = numerics_report(call, op, args, result);
  if (!report_) return;
  throw RuntimeError("numerics check failed");  // the Machine stops here with the call's span
}

}  // namespace relay::rt
