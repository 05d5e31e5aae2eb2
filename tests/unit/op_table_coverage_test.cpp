// The operator table's coverage: every supported operator has what each layer needs,
// found by its dense id — a type relation, its attrs schema when it takes attributes, and a
// reference kernel. (The compile path's decision per operator is held to the same table in
// tests/compiler/op_coverage_test.cpp.) One walk over all_ops(); a failure names the
// operators that lack something.
#include <catch2/catch.hpp>

#include <string>

#include "interpreter/kernels/kernel.h"
#include "lang/autodiff/gradient_rule.h"
#include "lang/ops/op_registry.h"
#include "lang/ops/op_schema.h"
#include "lang/types/relation.h"

using namespace relay;

TEST_CASE("operator ids are dense and index all_ops", "[ops][table]") {
  const auto& ops = all_ops();
  for (size_t i = 0; i < ops.size(); ++i) {
    INFO(ops[i].name);
    CHECK(ops[i].id == i);
    CHECK(&op_by_id(static_cast<OpId>(i)) == &ops[i]);
    CHECK(find_op(ops[i].name) == &ops[i]);
  }
}

TEST_CASE("every supported operator has a relation, its attrs schema and a reference kernel", "[ops][table]") {
  std::string no_relation, bad_schema, no_kernel, unsupported_with_kernel;
  size_t with_gradient = 0;
  for (const OpInfo& op : all_ops()) {
    const std::string name(op.name);
    if (!op.supported) {
      // Registered by name only: the checker reports "not supported yet", so neither a
      // relation nor a kernel may exist that would make it half-supported.
      if (find_relation(op) || rt::find_kernel(op) || autodiff::find_gradient(op)) unsupported_with_kernel += " " + name;
      continue;
    }
    if (!find_relation(op)) no_relation += " " + name;
    // An operator that takes attributes points at a schema of the table, complete (every
    // field known, so a misspelt attribute is an error rather than ignored).
    if (op.attrs && (find_attr_schema(op.attrs->name) != op.attrs || !op.attrs->complete)) bad_schema += " " + name;
    if (!rt::find_kernel(op)) no_kernel += " " + name;
    // The by-name wrappers agree with the id tables.
    CHECK(find_relation(op.name) == find_relation(op));
    CHECK(rt::find_kernel(op.name) == rt::find_kernel(op));
    with_gradient += autodiff::find_gradient(op) != nullptr;
  }
  INFO("supported without a type relation:" << no_relation);
  CHECK(no_relation.empty());
  INFO("supported, attrs not a complete schema of attr_schemas.def:" << bad_schema);
  CHECK(bad_schema.empty());
  INFO("supported without a reference kernel:" << no_kernel);
  CHECK(no_kernel.empty());
  INFO("not supported, yet with a relation, kernel or gradient:" << unsupported_with_kernel);
  CHECK(unsupported_with_kernel.empty());
  // Gradients attach per id (lang/autodiff/gradient_rule.h); gradient_test.cpp checks
  // each one numerically.
  CHECK(with_gradient > 0);
  CHECK(find_relation(std::string_view("no.such_op")) == nullptr);
  CHECK(rt::find_kernel(std::string_view("no.such_op")) == nullptr);
}
