// OpTable<T>: one T per operator, indexed by the operator's dense id (OpInfo::id).
//
// Each layer keeps what it knows about operators in one of these (relations in lang/types,
// reference kernels in interpreter/kernels, lowerings in compiler/pipeline), so a lookup is
// one vector index instead of hashing the operator's name, and lang/ops need not know the
// layers above it. A table starts with a default T (nullptr, "none") for every operator and
// is filled once, at start-up, by name through required_op().
#pragma once

#include <cstddef>
#include <memory>

#include "lang/ops/op_registry.h"

namespace relay {

template <class T>
class OpTable {
 public:
  OpTable() : size_(all_ops().size()), entries_(std::make_unique<T[]>(size_)) {}

  const T& operator[](const OpInfo& op) const { return entries_[op.id]; }
  T& operator[](const OpInfo& op) { return entries_[op.id]; }
  const T& operator[](OpId id) const { return entries_[id]; }
  T& operator[](OpId id) { return entries_[id]; }
  size_t size() const { return size_; }

 private:
  // An array rather than std::vector so that OpTable<bool> holds real bools.
  size_t size_;
  std::unique_ptr<T[]> entries_;
};

}  // namespace relay
