// Literal formatting for the Relay pretty printer: numbers (see printer.h).

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "lang/syntax/printer.h"

namespace relay {

// ---------------------------------------------------------------------------------------
// Literals

std::string format_float_literal(double v, DataType dtype) {
  std::string suffix = "f";
  if (dtype.code == DataType::Float && dtype.bits == 16) suffix = "f16";
  if (dtype.code == DataType::Float && dtype.bits == 64) suffix = "f64";
  if (std::isnan(v)) return "nanf";
  if (std::isinf(v)) return v < 0 ? "-inff" : "inff";
  char buf[64];
  std::to_chars_result r;
  if (suffix == "f") {
    float f = static_cast<float>(v);
    if (std::isinf(f)) return f < 0 ? "-inff" : "inff";
    r = std::to_chars(buf, buf + sizeof buf, f);
    // The shortest digits of a float near FLT_MAX read back (as a double) slightly above
    // FLT_MAX, which a reader may reject as out of range: use the exact value instead.
    double back = 0;
    std::from_chars(buf, r.ptr, back);
    if (std::fabs(back) > static_cast<double>(std::numeric_limits<float>::max()))
      r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(f));
  } else {
    r = std::to_chars(buf, buf + sizeof buf, v);
  }
  return std::string(buf, r.ptr) + suffix;
}

std::string format_int_literal(int64_t v, DataType dtype) {
  std::string s = std::to_string(v);
  if (dtype.is_bool()) return v ? "True" : "False";
  if (dtype.code == DataType::Int && dtype.bits == 64) s += "i64";
  if (dtype.code == DataType::Int && dtype.bits == 16) s += "i16";
  return s;
}

std::string format_constant(const ConstantExpr* c) {
  if (c->dtype.is_bool()) return c->int_value ? "True" : "False";
  if (c->dtype.is_float()) return format_float_literal(c->float_value, c->dtype);
  return format_int_literal(c->int_value, c->dtype);
}

}  // namespace relay
