// Helpers shared by the parts of the inspection model (inspect.h); not for front ends.
#pragma once

#include <string>

#include "interpreter/eval/closure.h"
#include "interpreter/eval/numerics.h"
#include "interpreter/runtime/ndarray.h"

namespace relay::rt::inspect_detail {

// `(2, 3)`, `(3)`: a shape as Relay types write it (runtime's shape_to_string writes
// Python's `(3,)`).
std::string relay_shape_text(const Shape& shape);
// `Tensor[(2, 3), float32]`, or `float32` for rank 0 (TVM's type printer).
std::string tensor_type_text(const NDArray& a);

// A number as numpy prints a scalar of `dtype` (`2.0`, `7`, `True`): statistics are
// doubles, shown in the tensor's own dtype so they read like its elements.
std::string scalar_text(double v, DataType dtype);
// The mean in the tensor's dtype when that is a float type, else as a float64 (the mean
// of integers is rarely one).
std::string mean_text(double v, DataType dtype);
// Whether `s` has finite elements to take a minimum, maximum and mean of.
bool has_finite(const TensorStats& s, const NDArray& a);

// `%f(%x, %y)`, `fn(%x)`, `nn.relu`, `Cons`.
std::string closure_summary(const ClosureObj& c);

}  // namespace relay::rt::inspect_detail
