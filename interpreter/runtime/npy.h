// NumPy's `.npy` and `.npz` formats (numpy.lib.format, versions 1.0–3.0).
//
// .npy: magic "\x93NUMPY", version, header length, a Python-dict header
// ({'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }) padded to 64 bytes, data.
// .npz: a zip archive of .npy members (stored, or deflated by savez_compressed).
// Every malformed input is a RuntimeError naming the file and what is wrong.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "interpreter/runtime/ndarray.h"

namespace relay::rt {

// Parses .npy bytes. `name` is used in error messages.
NDArray parse_npy(std::string_view bytes, const std::string& name);
// Serialises as .npy version 1.0 (little-endian, C order).
std::string serialize_npy(const NDArray& a);

NDArray read_npy(const std::string& path);
void write_npy(const std::string& path, const NDArray& a);

// Members in archive order; keys without the `.npy` suffix (as numpy.load gives them).
std::vector<std::pair<std::string, NDArray>> read_npz(const std::string& path);
void write_npz(const std::string& path, const std::vector<std::pair<std::string, NDArray>>& arrays);

// numpy's dtype descr for a runtime dtype (`<f4`, `|b1`, ...), and back.
std::string npy_descr(DataType t);

}  // namespace relay::rt
