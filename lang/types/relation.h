// Operator type relations (reference §2.3–§3): the contract between the solver and the
// per-operator rules.
//
// A relation is a function over the types of one call: its inputs (in positional order)
// and its output. It is called whenever one of those types changes, with the types as
// currently known, and answers
//   Solved   it has assigned everything it will ever assign (typically the output);
//   Pending  an input it needs is still unknown (a Hole): call again later;
//   Failed   the call is ill-typed; it has reported why through `report`.
// A relation may assign *inputs* as well as the output (conv2d's weight from `channels`
// and `kernel_size`, bias_add's bias): that is how relations fix parameter types.
//
// Relations live in lang/types/relations/*.cpp, one file per operator family, registered
// by operator name and found by the operator's dense id through `find_relation` (an
// OpTable, lang/ops/op_table.h). The same code serves the solver, the
// interpreter (output shapes with `?` dims at run time) and tests (relation_eval.h).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lang/ops/op_registry.h"
#include "lang/types/call_attrs.h"
#include "lang/types/type.h"

namespace relay {

enum class RelStatus : uint8_t { Solved, Pending, Failed };

// A relation's complaint. The solver turns it into a diagnostic at the call, with a label
// on each input named here (at the argument's span, plus where that argument's type came
// from), a label on the attribute named here, the operator's rule as a note, and `notes`.
struct RelError {
  std::string message;                                        // "incompatible broadcast ..."
  std::vector<std::pair<size_t, std::string>> input_labels;  // input index -> label text
  std::string attr;                                           // a faulty attribute, if any
  std::string attr_label;
  std::vector<std::string> notes;
};

class RelationContext {
 public:
  virtual ~RelationContext() = default;

  virtual std::string_view op_name() const = 0;
  virtual size_t num_inputs() const = 0;
  // The current type of input `i`, holes resolved as far as known (at the top level and
  // inside). A HoleTy means "not known yet".
  virtual Ty input(size_t i) = 0;
  virtual Ty output() = 0;
  virtual const CallAttrs& attrs() const = 0;
  virtual TypeArena& arena() = 0;

  // Unifies input `i` / the output with `t`. False when they cannot be unified (the
  // mismatch has been reported); the relation should then return Failed.
  virtual bool assign_input(size_t i, Ty t) = 0;
  virtual bool assign_output(Ty t) = 0;
  // A fresh unknown type (e.g. for the fields of a tuple input that is not known yet).
  virtual Ty fresh() = 0;

  // Records the error; the relation returns RelStatus::Failed afterwards.
  virtual void report(RelError error) = 0;

  // Convenience: report and return Failed.
  RelStatus fail(RelError error) {
    report(std::move(error));
    return RelStatus::Failed;
  }
  RelStatus fail(std::string message) { return fail(RelError{std::move(message), {}, {}, {}, {}}); }
};

using RelationFn = RelStatus (*)(RelationContext&);

// FusionPattern and fusion_pattern_name live with the operator table
// (lang/ops/op_registry.h): an operator's pattern is part of its one declaration.

// nullptr for an operator without a relation (one not supported yet). O(1): an index.
RelationFn find_relation(const OpInfo& op);
// The same by name (find_op first), for the CLI and tests; nullptr for an unknown name.
RelationFn find_relation(std::string_view op);

// Each family file defines one of these; relations/registry.cpp calls them all.
struct RelationTable;
void register_relation(RelationTable& table, std::string_view op, RelationFn fn);
void register_elementwise_relations(RelationTable& table);  // §3.2, §3.3
void register_reduction_relations(RelationTable& table);    // §3.4
void register_transform_relations(RelationTable& table);    // §3.5
void register_sorting_relations(RelationTable& table);      // §3.6
void register_nn_relations(RelationTable& table);           // §3.7 (not convolution/pooling)
void register_conv_pool_relations(RelationTable& table);    // §3.7 convolution, pooling
void register_misc_relations(RelationTable& table);         // supported ops of §3.8–§3.9
void register_qnn_relations(RelationTable& table);          // §3.10 qnn.*
void register_random_relations(RelationTable& table);       // §3.8 random.*
void register_dyn_relations(RelationTable& table);          // §3.9 dyn.*
void register_annotation_relations(RelationTable& table);   // §3.9 markers: annotation.*, on_device, device_copy
void register_image_relations(RelationTable& table);        // §3.8 image.*
void register_vision_relations(RelationTable& table);       // §3.8 vision.*

}  // namespace relay
