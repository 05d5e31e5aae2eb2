// The Relay function an ONNX graph becomes, built one node at a time: parameters for the
// graph inputs, a `let` per operator call, constants in a `#[metadata]` section, and the
// shapes and dtypes of values as the type checker infers them.
//
// Shapes come from Relay's own type checker (the "type oracle"): when a converter needs
// the shape of a value computed by an earlier node (MatMul's ranks, Flatten, Expand,
// auto_pad), the lets not yet typed are checked as a probe function whose parameters are
// the graph inputs, the constants and the lets typed by earlier probes, each with its
// known type: a probe never decodes weights nor re-checks what an earlier probe typed, so
// importing stays linear in the number of nodes however often converters ask.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "importer/onnx/constant.h"
#include "lang/base/dtype.h"

namespace relay::importer::onnx {

// A tensor's dtype and shape (a dim of -1 is unknown: `?`).
struct TensorInfo {
  DataType dtype;
  std::vector<int64_t> shape;
  size_t rank() const { return shape.size(); }
  bool is_static() const;
};

// An ONNX value in the Relay function: an atom (`%x`, `%3`), or a constant not yet
// placed in the program (materialised on first use as an operand).
struct RValue {
  std::string atom;                           // empty until emitted / materialised
  std::shared_ptr<const Constant> constant;   // known at import time
  int let_index = -1;                         // the let defining `atom`, if any
  std::optional<TensorInfo> info;             // known type (params, constants, probed lets)
};

class GraphBuilder {
 public:
  // A parameter of the function; returns its atom. `name` is the ONNX name (sanitised).
  std::string add_param(const std::string& onnx_name, const TensorInfo& info);
  // `%N = expr;` and the value of `%N`.
  RValue emit(const std::string& expr);
  // The atom of a value, placing a constant in the metadata (or inline, for a scalar).
  std::string atom(RValue& v);
  // The value's dtype and shape, probing the type checker when not yet known. Throws
  // ImportError when the lets do not type-check (the message names the checker's error).
  const TensorInfo& info(RValue& v);
  // The whole program: version header, `def @main(params) -> RET { lets; result }`,
  // and the metadata section. `result` is an atom or a tuple of atoms.
  std::string program(const std::string& result);
  // The checked type of an expression over the lets built so far (for the result).
  std::string type_text(const std::string& expr);


 private:
  // A probe over lets [first, end): the earlier lets are typed parameters.
  std::string probe_text(size_t first, const std::string& result) const;
  std::string resolve_constants(const std::string& text, bool as_params) const;
  void probe();

  struct Let {
    std::string expr;
    std::optional<TensorInfo> info;  // when a tensor
    std::string type;                // the checked type as text, once probed
  };
  std::vector<std::string> params_;     // "%name: Tensor[...]"
  std::set<std::string> used_names_;   // parameter names taken
  std::vector<Let> lets_;
  std::vector<std::shared_ptr<const Constant>> constants_;  // metadata order
  size_t probed_ = 0;                    // lets_[0, probed_) have `info`
};

// `Tensor[(1, 3), float32]`.
std::string tensor_type_text(const TensorInfo& t);
// A Relay identifier for an ONNX name (letters, digits, `_`; not starting with a digit).
std::string sanitize_name(const std::string& onnx_name);

}  // namespace relay::importer::onnx
