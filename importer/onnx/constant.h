// A tensor whose value is known while importing: an initializer, a Constant node, or the
// result of folding shape arithmetic (Shape -> Gather -> Concat -> Reshape, as exporters
// write it). Kept in the Relay dtype's little-endian layout, so an initializer's bytes
// go to the metadata section unchanged.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "lang/base/dtype.h"

namespace relay::importer::onnx {

// A problem with one node (an unsupported operator or attribute, a missing constant);
// the importer reports it with the node and goes on with the next.
struct ImportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Constant {
  DataType dtype;
  std::vector<int64_t> shape;
  std::string bytes;

  int64_t size() const;
  // Element i; ImportError when the tensor has no element i (an empty `k`, a scalar
  // input given as an empty tensor).
  int64_t get_int(int64_t i) const;
  double get_double(int64_t i) const;
  std::vector<int64_t> ints() const;
  std::vector<double> doubles() const;

  static Constant from_ints(const std::vector<int64_t>& values, std::vector<int64_t> shape, DataType dtype);
  static Constant from_doubles(const std::vector<double>& values, std::vector<int64_t> shape, DataType dtype);
};

size_t element_bytes(DataType t);

// The product of v[from, to), saturating at INT64_MAX (shapes come from the file; a
// negative dim also gives INT64_MAX). 1 for an empty range.
int64_t saturating_product(const std::vector<int64_t>& v, size_t from = 0, size_t to = SIZE_MAX);

// TVM's NDArray::Save blob (magic, reserved, device, ndim, dtype, shape, byte count,
// data), base64-encoded: one entry of the metadata section's `b64ndarrays`.
std::string ndarray_blob_base64(const Constant& c);
std::string encode_base64(const std::string& bytes);

}  // namespace relay::importer::onnx
