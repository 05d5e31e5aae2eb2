// A transcription of numpy 1.24's arrayprint behaviour (array2string, _formatArray,
// FloatingFormat, IntegerFormat, BoolFormat, array_repr's dtype suffix) for the default
// 'maxprec' float mode and the legacy=False layout. Float digits come from
// float_format.h, which reproduces numpy's Dragon4.
#include "interpreter/runtime/print.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "interpreter/runtime/dispatch.h"
#include "interpreter/runtime/float_format.h"

namespace relay::rt {

namespace {

// numpy has at most 32 dimensions; far more than that is not worth laying out (and
// the layout recurses once per dimension).
constexpr size_t kMaxPrintDims = 64;

using ElementFn = std::function<std::string(int64_t)>;

struct FloatLayout {
  int mant_bits;
  int exp_bits;
};

FloatLayout float_layout(DataType t) {
  if (t.code == DataType::BFloat) return {7, 8};
  switch (t.bits) {
    case 16: return {10, 5};
    case 32: return {23, 8};
    default: return {52, 11};
  }
}

FloatParts float_parts(const NDArray& a, int64_t i) {
  const size_t bytes = dtype_bytes(a.dtype());
  uint64_t bits = 0;
  const auto* p = static_cast<const unsigned char*>(a.raw()) + static_cast<size_t>(i) * bytes;
  if (bytes == 2) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    bits = v;
  } else if (bytes == 4) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    bits = v;
  } else {
    std::memcpy(&bits, p, 8);
  }
  const FloatLayout l = float_layout(a.dtype());
  return decompose_float(bits, l.mant_bits, l.exp_bits);
}

// max / min as numpy computes it: in the array's own precision (float16 divides in
// float and rounds to half), overflowing to inf.
double ratio_in_dtype(DataType t, double max, double min) {
  if (t.code == DataType::BFloat) return static_cast<float>(bfloat16(static_cast<float>(max) / static_cast<float>(min)));
  if (t.bits == 16) return static_cast<float>(float16(static_cast<float>(max) / static_cast<float>(min)));
  if (t.bits == 32) return static_cast<float>(max) / static_cast<float>(min);
  return max / min;
}

std::string int_string(const NDArray& a, int64_t i) {
  return dispatch_dtype(a.dtype(), [&]<class T>(TypeTag<T>) -> std::string {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return std::to_string(a.data<T>()[i]);
    else return "";
  });
}

// FloatingFormat: one common layout (positional or scientific, padding, digit count)
// chosen from `sample`, the elements that will be shown.
class FloatFormatter {
 public:
  FloatFormatter(const NDArray& a, const std::vector<int64_t>& sample, const PrintOptions& o) : a_(a) {
    std::vector<FloatParts> finite;
    bool any_neg_inf = false;
    double max_abs = 0, min_abs = 0;
    bool any_nonzero = false;
    for (int64_t i : sample) {
      const FloatParts p = float_parts(a, i);
      if (p.nan || p.inf) {
        any_neg_inf |= p.inf && p.negative;
        continue;
      }
      finite.push_back(p);
      const double v = std::abs(a.get_double(i));
      if (v == 0) continue;
      max_abs = any_nonzero ? std::max(max_abs, v) : v;
      min_abs = any_nonzero ? std::min(min_abs, v) : v;
      any_nonzero = true;
    }
    if (any_nonzero)
      exp_ = max_abs >= 1e8 ||
             (!o.suppress && (min_abs < 0.0001 || ratio_in_dtype(a.dtype(), max_abs, min_abs) > 1000.));

    precision_ = o.precision;
    if (finite.empty()) {
      pad_left_ = pad_right_ = 0;
      exp_ = false;
    } else if (exp_) {
      FloatFormat first;
      first.precision = o.precision;
      first.trim = Trim::Zeros;
      int exp_len = 0, frac_len = 0;
      pad_left_ = 0;
      for (const FloatParts& p : finite) {
        const std::string s = format_scientific(p, first);
        const size_t e = s.find('e'), dot = s.find('.');
        exp_len = std::max(exp_len, static_cast<int>(s.size() - e - 1));
        frac_len = std::max(frac_len, static_cast<int>(e - dot - 1));
        pad_left_ = std::max(pad_left_, static_cast<int>(dot));
      }
      exp_size_ = exp_len - 1;
      precision_ = min_digits_ = frac_len;
      pad_right_ = exp_size_ + 2 + precision_;
    } else {
      FloatFormat first;
      first.precision = o.precision;
      first.trim = Trim::Zeros;
      pad_left_ = pad_right_ = 0;
      for (const FloatParts& p : finite) {
        const std::string s = format_positional(p, first);
        const size_t dot = s.find('.');
        pad_left_ = std::max(pad_left_, static_cast<int>(dot));
        pad_right_ = std::max(pad_right_, static_cast<int>(s.size() - dot - 1));
      }
      min_digits_ = 0;
    }
    if (finite.size() != sample.size()) {
      const int offset = pad_right_ + 1;  // the point
      pad_left_ = std::max({pad_left_, 3 - offset, 3 + (any_neg_inf ? 1 : 0) - offset});
    }
  }

  std::string operator()(int64_t i) const {
    const FloatParts p = float_parts(a_, i);
    if (p.nan || p.inf) {
      const std::string s = p.nan ? "nan" : p.negative ? "-inf" : "inf";
      const int width = pad_left_ + pad_right_ + 1;
      return std::string(static_cast<size_t>(std::max(width - static_cast<int>(s.size()), 0)), ' ') + s;
    }
    FloatFormat f;
    f.precision = precision_;
    f.min_digits = min_digits_;
    f.pad_left = pad_left_;
    if (exp_) {
      f.trim = Trim::Keep;
      f.exp_digits = exp_size_;
      return format_scientific(p, f);
    }
    f.trim = Trim::Zeros;
    f.pad_right = pad_right_;
    return format_positional(p, f);
  }

 private:
  NDArray a_;
  bool exp_ = false;
  int precision_ = -1, min_digits_ = -1, pad_left_ = 0, pad_right_ = 0, exp_size_ = -1;
};

ElementFn element_formatter(const NDArray& a, const std::vector<int64_t>& sample, const PrintOptions& o) {
  const DataType t = a.dtype();
  if (t.is_bool()) {
    const std::string true_str = a.ndim() == 0 ? "True" : " True";
    return [a, true_str](int64_t i) { return a.data<bool>()[i] ? true_str : std::string("False"); };
  }
  if (t.is_float()) return FloatFormatter(a, sample, o);
  size_t width = 0;
  for (int64_t i : sample) width = std::max(width, int_string(a, i).size());
  return [a, width](int64_t i) {
    std::string s = int_string(a, i);
    if (s.size() < width) s.insert(0, width - s.size(), ' ');
    return s;
  };
}

// str() of a numpy scalar: floats use the shortest digits, positional between 1e-4
// and 1e16 (`1.0`, `0.001`), scientific otherwise (`1e-05`, `1.5e+16`).
std::string scalar_str(const NDArray& a, int64_t i) {
  const DataType t = a.dtype();
  if (t.is_bool()) return a.data<bool>()[i] ? "True" : "False";
  if (!t.is_float()) return int_string(a, i);
  const FloatParts p = float_parts(a, i);
  const double v = std::abs(a.get_double(i));
  FloatFormat f;
  if (v == 0 || (1e-4 <= v && v < 1e16)) {
    f.trim = Trim::LeaveOneZero;
    return format_positional(p, f);
  }
  f.trim = Trim::DptZeros;
  return format_scientific(p, f);
}

std::string rstrip(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.pop_back();
  return s;
}

// _formatArray with _extendLine (every element is one line).
class Layout {
 public:
  Layout(const NDArray& a, ElementFn fmt, std::string sep, int edge, bool summarise)
      : shape_(a.shape()), strides_(contiguous_strides(a.shape())), fmt_(std::move(fmt)), sep_(std::move(sep)),
        edge_(edge), summarise_(summarise) {}

  std::string format(size_t axis, int64_t offset, const std::string& hanging, int width) const {
    if (axis == shape_.size()) return fmt_(offset);
    const std::string next_hanging = hanging + ' ';
    const int next_width = width - 1;  // room for the closing ']'
    const int64_t len = shape_[axis];
    const bool summary = summarise_ && 2 * static_cast<int64_t>(edge_) < len;
    const int64_t leading = summary ? edge_ : 0;
    const int64_t trailing = summary ? edge_ : len;
    const int64_t stride = strides_[axis];
    const size_t axes_left = shape_.size() - axis;
    std::string s;
    if (axes_left == 1) {
      const int elem_width = width - std::max(static_cast<int>(rstrip(sep_).size()), 1);
      std::string line = hanging;
      for (int64_t i = 0; i < leading; ++i) {
        extend(s, line, format(axis + 1, offset + i * stride, next_hanging, next_width), elem_width, hanging);
        line += sep_;
      }
      if (summary) {
        extend(s, line, "...", elem_width, hanging);
        line += sep_;
      }
      for (int64_t i = trailing; i > 1; --i) {
        extend(s, line, format(axis + 1, offset + (len - i) * stride, next_hanging, next_width), elem_width,
               hanging);
        line += sep_;
      }
      extend(s, line, format(axis + 1, offset + (len - 1) * stride, next_hanging, next_width), elem_width, hanging);
      s += line;
    } else {
      const std::string line_sep = rstrip(sep_) + std::string(axes_left - 1, '\n');
      for (int64_t i = 0; i < leading; ++i)
        s += hanging + format(axis + 1, offset + i * stride, next_hanging, next_width) + line_sep;
      if (summary) s += hanging + "..." + line_sep;
      for (int64_t i = trailing; i > 1; --i)
        s += hanging + format(axis + 1, offset + (len - i) * stride, next_hanging, next_width) + line_sep;
      s += hanging + format(axis + 1, offset + (len - 1) * stride, next_hanging, next_width);
    }
    return "[" + s.substr(hanging.size()) + "]";
  }

 private:
  static void extend(std::string& s, std::string& line, const std::string& word, int width,
                     const std::string& next_prefix) {
    // Wrapping a line that holds only the indent would not help.
    if (static_cast<int>(line.size() + word.size()) > width && line.size() > next_prefix.size()) {
      s += rstrip(line) + "\n";
      line = next_prefix;
    }
    line += word;
  }

  const Shape& shape_;
  std::vector<int64_t> strides_;
  ElementFn fmt_;
  std::string sep_;
  int edge_;
  bool summarise_;
};

// Flat offsets of the elements shown: all, or the leading and trailing `edge` of every
// dimension longer than 2 * edge (numpy's _leading_trailing).
std::vector<int64_t> shown_elements(const NDArray& a, bool summarise, int edge) {
  std::vector<int64_t> offsets{0};
  const auto strides = contiguous_strides(a.shape());
  for (size_t d = 0; d < a.ndim(); ++d) {
    const int64_t len = a.dim(d);
    std::vector<int64_t> keep;
    if (summarise && len > 2 * static_cast<int64_t>(edge)) {
      for (int64_t i = 0; i < edge; ++i) keep.push_back(i);
      for (int64_t i = len - edge; i < len; ++i) keep.push_back(i);
    } else {
      for (int64_t i = 0; i < len; ++i) keep.push_back(i);
    }
    std::vector<int64_t> next;
    next.reserve(offsets.size() * keep.size());
    for (int64_t o : offsets)
      for (int64_t k : keep) next.push_back(o + k * strides[d]);
    offsets = std::move(next);
  }
  return offsets;
}

// array2string for a non-empty array, with numpy's prefix-dependent indent.
std::string array2string(const NDArray& a, const PrintOptions& o, int linewidth, const std::string& sep,
                         size_t prefix_len) {
  const bool summarise = a.size() > o.threshold;
  const int edge = std::max(o.edgeitems, 0);
  ElementFn fmt = element_formatter(a, shown_elements(a, summarise, edge), o);
  Layout layout(a, std::move(fmt), sep, edge, summarise);
  return layout.format(0, 0, std::string(1 + prefix_len, ' '), linewidth);
}

bool too_many_dims(const NDArray& a) { return a.ndim() > kMaxPrintDims; }

std::string opaque(const NDArray& a) {
  return "<tensor of shape " + shape_to_string(a.shape()) + " and dtype " + dtype_name(a.dtype()) + ">";
}

}  // namespace

std::string format_element(const NDArray& a, int64_t flat_index) { return scalar_str(a, flat_index); }

std::function<std::string(int64_t)> array_element_formatter(const NDArray& a, const PrintOptions& o) {
  if (!a.defined() || a.size() == 0) return [](int64_t) { return std::string(); };
  const bool summarise = a.size() > o.threshold;
  ElementFn fmt = element_formatter(a, shown_elements(a, summarise, std::max(o.edgeitems, 0)), o);
  return [fmt = std::move(fmt)](int64_t i) {
    std::string s = fmt(i);
    const size_t first = s.find_first_not_of(' '), last = s.find_last_not_of(' ');
    return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
  };
}

std::string format_tensor(const NDArray& a, const PrintOptions& o) {
  if (!a.defined()) return "<undefined>";
  if (too_many_dims(a)) return opaque(a);
  if (a.ndim() == 0) return scalar_str(a, 0);
  if (a.size() == 0) return "[]";
  return array2string(a, o, o.linewidth, " ", 0);
}

std::string format_tensor_repr(const NDArray& a, const PrintOptions& o) {
  if (!a.defined()) return "<undefined>";
  if (too_many_dims(a)) return opaque(a);
  const DataType t = a.dtype();
  // numpy leaves out the dtypes a literal would default to.
  const bool implied = t.is_bool() || t == DataType::int_(64) || t == DataType::float_(64);
  const bool skip_dtype = implied && a.size() > 0;
  const std::string prefix = "array(";
  const std::string suffix = skip_dtype ? ")" : ",";
  std::string body;
  if (a.size() > 0) body = array2string(a, o, o.linewidth - static_cast<int>(suffix.size()), ", ", prefix.size());
  else if (a.ndim() == 1) body = "[]";
  else body = "[], shape=" + shape_to_string(a.shape());
  std::string out = prefix + body + suffix;
  if (skip_dtype) return out;
  const std::string dtype = "dtype=" + dtype_name(t) + ")";
  const size_t nl = out.rfind('\n');
  const size_t last_line = out.size() - (nl == std::string::npos ? 0 : nl + 1);
  if (static_cast<int>(last_line + dtype.size() + 1) > o.linewidth) out += "\n" + std::string(prefix.size(), ' ');
  else out += ' ';
  return out + dtype;
}

}  // namespace relay::rt
