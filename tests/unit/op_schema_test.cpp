// Attribute schemas (lang/ops/attr_schemas.def) and operator signatures (the inputs, attrs
// and doc columns of lang/ops/ops.def) against reference §3: table integrity, spot checks
// of structs and signatures, and that every written default reads back as a Relay
// attribute value.
#include <catch2/catch.hpp>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "lang/ops/op_registry.h"
#include "lang/ops/op_schema.h"
#include "lang/syntax/ast.h"
#include "lang/syntax/parser.h"

using namespace relay;

namespace {

const AttrSchema& schema(std::string_view name) {
  const AttrSchema* s = find_attr_schema(name);
  INFO("attrs struct " << std::string(name));
  REQUIRE(s != nullptr);
  return *s;
}

const OpSignature& sig(std::string_view op) {
  const OpSignature* s = find_op_signature(op);
  INFO("operator " << std::string(op));
  REQUIRE(s != nullptr);
  return *s;
}

struct Expected {
  std::string_view name;
  AttrType type;
  std::string_view default_text;  // "REQUIRED" for a required field
};

// The struct's fields, in order, with types and defaults.
void check_fields(std::string_view struct_name, const std::vector<Expected>& expected) {
  const AttrSchema& s = schema(struct_name);
  INFO("attrs struct " << std::string(struct_name));
  REQUIRE(s.fields.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const AttrField& f = s.fields[i];
    const Expected& e = expected[i];
    INFO("field " << i << " " << std::string(e.name));
    CHECK(f.name == e.name);
    CHECK(attr_type_name(f.type) == attr_type_name(e.type));
    if (e.default_text == "REQUIRED") {
      CHECK(f.required);
      CHECK(f.default_text.empty());
    } else {
      CHECK_FALSE(f.required);
      CHECK(f.default_text == e.default_text);
    }
  }
}

std::vector<std::string> arg_names(const OpSignature& s) {
  return std::vector<std::string>(s.args.begin(), s.args.end());
}

std::string attrs_name(const OpSignature& s) {
  return s.attrs ? std::string(s.attrs->name) : "NoAttrs";
}

// Parses `f(x=<text>)` as a lone expression; keeps the parse alive for inspection.
struct ParsedDefault {
  SourceManager sources;
  DiagnosticBag diags;
  std::unique_ptr<Module> module;
  const AttrValue* value = nullptr;
};

std::unique_ptr<ParsedDefault> parse_default(std::string_view text) {
  auto p = std::make_unique<ParsedDefault>();
  FileId id = p->sources.add("default.relay", "f(x=" + std::string(text) + ")");
  p->module = parse_expression(p->sources.get(id), p->diags);
  if (p->module && p->module->expr) {
    if (const auto* call = as<CallExpr>(p->module->expr)) {
      if (call->attrs.size() == 1 && call->attrs[0].key == "x") p->value = call->attrs[0].value;
    }
  }
  return p;
}

// Whether a parsed default fits the field's type tag.
bool value_fits(AttrType type, const AttrValue& v) {
  auto all_items = [&](auto pred) {
    for (const AttrValue* item : v.items)
      if (!pred(*item)) return false;
    return true;
  };
  auto is_int = [](const AttrValue& x) { return x.kind == AttrValueKind::Int; };
  auto is_num = [](const AttrValue& x) {
    return x.kind == AttrValueKind::Int || x.kind == AttrValueKind::Float;
  };
  bool none = v.kind == AttrValueKind::None;
  bool array = v.kind == AttrValueKind::Array;
  switch (type) {
    case AttrType::Int: return v.kind == AttrValueKind::Int;
    case AttrType::Bool: return v.kind == AttrValueKind::Bool;
    case AttrType::Double: return v.kind == AttrValueKind::Float;
    case AttrType::String:
    case AttrType::DType: return v.kind == AttrValueKind::String;
    case AttrType::IndexExpr:
    case AttrType::Integer: return none || v.kind == AttrValueKind::Int;
    // Array<IndexExpr> may hold FloatImm elements (MultiBoxPriorAttrs, ProposalAttrs).
    case AttrType::IndexArray: return none || (array && all_items(is_num));
    case AttrType::IntegerArray: return none || (array && all_items(is_int));
    case AttrType::DoubleArray:
      return none || (array && all_items([](const AttrValue& x) {
                        return x.kind == AttrValueKind::Float;
                      }));
    case AttrType::StringArray:
      return none || (array && all_items([](const AttrValue& x) {
                        return x.kind == AttrValueKind::String;
                      }));
    case AttrType::IndexArrayArray:
      return none || (array && all_items([&](const AttrValue& x) {
                        if (x.kind != AttrValueKind::Array) return false;
                        for (const AttrValue* y : x.items)
                          if (!is_int(*y)) return false;
                        return true;
                      }));
    case AttrType::Expr:
    case AttrType::Object: return true;
  }
  return false;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Integrity

TEST_CASE("schema tables have the reference's sizes", "[ops][schema]") {
  size_t complete = 0, partial = 0, fields = 0;
  for (const AttrSchema& s : all_attr_schemas()) {
    (s.complete ? complete : partial) += 1;
    fields += s.fields.size();
  }
  CHECK(complete == 141);  // the rows of §3.1 + the 5 qnn structs, completed from TVM v0.14.0
  CHECK(partial == 7);     // Ethos-U (6), DictAttrs
  CHECK(fields == 488);    // 475 in §3.1 + 9 stated in §3.10 + compute_dtype + DensePackAttrs' 3
  CHECK(all_op_signatures().size() == all_ops().size());
  CHECK(all_op_signatures().size() == 304);
}

TEST_CASE("signatures are the operator entries", "[ops][schema]") {
  // Signatures used to be a table of their own; the old names now reach the same entries.
  CHECK(&all_op_signatures() == &all_ops());
  for (const OpInfo& op : all_ops()) {
    INFO("operator " << std::string(op.name));
    CHECK(find_op_signature(op.name) == &op);
  }
  CHECK(find_op_signature("nn.conv4d") == nullptr);
  CHECK(find_op_signature("") == nullptr);
}

TEST_CASE("signatures are well formed", "[ops][schema]") {
  for (const OpSignature& s : all_op_signatures()) {
    INFO("operator " << std::string(s.name));
    std::set<std::string_view> names;
    for (std::string_view a : s.args) {
      CHECK(!a.empty());
      CHECK(names.insert(a).second);
    }
    if (s.attrs) {
      // The struct exists and is the one find_attr_schema returns.
      CHECK(find_attr_schema(s.attrs->name) == s.attrs);
      CHECK(find_attr_schema(s.attrs->type_key) == s.attrs);
    } else {
      CHECK(s.attrs_registered);  // an unregistered struct is always named
    }
    CHECK(!s.doc.empty());
    CHECK(s.doc.size() <= 200);
    CHECK(s.doc.find('\n') == std::string_view::npos);
  }
}

TEST_CASE("attribute schemas are well formed", "[ops][schema]") {
  std::set<std::string_view> names, keys;
  std::set<const AttrSchema*> used;
  for (const OpSignature& s : all_op_signatures())
    if (s.attrs) used.insert(s.attrs);
  for (const AttrSchema& s : all_attr_schemas()) {
    INFO("attrs struct " << std::string(s.name));
    CHECK(names.insert(s.name).second);
    CHECK(keys.insert(s.type_key).second);
    CHECK(find_attr_schema(s.name) == &s);
    CHECK(find_attr_schema(s.type_key) == &s);
    if (s.name == "TopKAttrs") {
      CHECK(s.type_key == "relay.attrs.TopkAttrs");
    } else if (s.name == "DictAttrs") {
      CHECK(s.type_key == "DictAttrs");
    } else {
      CHECK(s.type_key == "relay.attrs." + std::string(s.name));
    }
    CHECK(used.count(&s) == 1);  // every struct is some operator's
    std::set<std::string_view> fields;
    for (const AttrField& f : s.fields) {
      INFO("field " << std::string(f.name));
      CHECK(!f.name.empty());
      CHECK(fields.insert(f.name).second);
      CHECK(s.find_field(f.name) == &f);
      if (f.required || f.opaque_default) {
        CHECK(f.default_text.empty());
        CHECK_FALSE((f.required && f.opaque_default));
      } else {
        CHECK(!f.default_text.empty());
      }
    }
    CHECK(s.find_field("no_such_field") == nullptr);
  }
  CHECK(find_attr_schema("NoAttrs") == nullptr);
  CHECK(find_attr_schema("relay.attrs.TopKAttrs") == nullptr);  // the key is spelled Topk
}

TEST_CASE("every written default parses as an attribute value of its type", "[ops][schema]") {
  size_t checked = 0;
  for (const AttrSchema& s : all_attr_schemas()) {
    for (const AttrField& f : s.fields) {
      if (f.default_text.empty()) continue;
      INFO(std::string(s.name) << "." << std::string(f.name) << " = "
                               << std::string(f.default_text));
      auto p = parse_default(f.default_text);
      for (const auto& d : p->diags.items()) INFO(std::string(d.code()) << ": " << d.message);
      CHECK(p->diags.size() == 0);
      REQUIRE(p->value != nullptr);
      CHECK(value_fits(f.type, *p->value));
      ++checked;
    }
  }
  CHECK(checked > 300);
}

// ---------------------------------------------------------------------------------------
// Spot checks against §3.1

TEST_CASE("Conv2DAttrs: fields, order and defaults", "[ops][schema]") {
  check_fields("Conv2DAttrs", {
      {"strides", AttrType::IndexArray, "[1, 1]"},
      {"padding", AttrType::IndexArray, "[0, 0]"},
      {"dilation", AttrType::IndexArray, "[1, 1]"},
      {"groups", AttrType::Int, "1"},
      {"channels", AttrType::IndexExpr, "None"},
      {"kernel_size", AttrType::IndexArray, "None"},
      {"data_layout", AttrType::String, "\"NCHW\""},
      {"kernel_layout", AttrType::String, "\"OIHW\""},
      {"out_layout", AttrType::String, "\"\""},
      {"out_dtype", AttrType::DType, "\"\""},
  });
  CHECK(schema("relay.attrs.Conv2DAttrs").name == "Conv2DAttrs");
  CHECK(schema("Conv2DAttrs").complete);
}

TEST_CASE("transposed and 1-D convolutions put channels first", "[ops][schema]") {
  const AttrSchema& t = schema("Conv2DTransposeAttrs");
  REQUIRE(t.fields.size() == 11);
  CHECK(t.fields[0].name == "channels");
  CHECK(t.fields[3].name == "output_padding");
  CHECK(t.fields[8].default_text == "\"IOHW\"");
  const AttrSchema& c1 = schema("Conv1DAttrs");
  REQUIRE(c1.fields.size() == 10);
  CHECK(c1.fields[1].default_text == "[0, 0]");  // padding has two values, strides one
  CHECK(c1.fields[0].default_text == "[1]");
  check_fields("Conv2DWinogradAttrs", {
      {"tile_size", AttrType::Int, "REQUIRED"},
      {"strides", AttrType::IndexArray, "[1, 1]"},
      {"padding", AttrType::IndexArray, "[0, 0]"},
      {"dilation", AttrType::IndexArray, "[1, 1]"},
      {"groups", AttrType::Int, "1"},
      {"channels", AttrType::IndexExpr, "None"},
      {"kernel_size", AttrType::IndexArray, "None"},
      {"data_layout", AttrType::String, "\"NCHW\""},
      {"kernel_layout", AttrType::String, "\"OIHW\""},
      {"out_layout", AttrType::String, "\"\""},
      {"out_dtype", AttrType::DType, "\"\""},
  });
}

TEST_CASE("DenseAttrs and MatmulAttrs: units is required", "[ops][schema]") {
  check_fields("DenseAttrs", {
      {"units", AttrType::IndexExpr, "REQUIRED"},
      {"out_dtype", AttrType::DType, "\"\""},
  });
  check_fields("MatmulAttrs", {
      {"units", AttrType::IndexExpr, "REQUIRED"},
      {"out_dtype", AttrType::DType, "\"\""},
      {"transpose_a", AttrType::Bool, "False"},
      {"transpose_b", AttrType::Bool, "False"},
  });
}

TEST_CASE("reduction attrs", "[ops][schema]") {
  check_fields("ReduceAttrs", {
      {"axis", AttrType::IntegerArray, "None"},
      {"keepdims", AttrType::Bool, "False"},
      {"exclude", AttrType::Bool, "False"},
  });
  check_fields("ArgReduceAttrs", {
      {"axis", AttrType::IntegerArray, "None"},
      {"keepdims", AttrType::Bool, "False"},
      {"select_last_index", AttrType::Bool, "False"},
      {"exclude", AttrType::Bool, "False"},
  });
  check_fields("VarianceAttrs", {
      {"axis", AttrType::IntegerArray, "None"},
      {"keepdims", AttrType::Bool, "False"},
      {"exclude", AttrType::Bool, "False"},
      {"unbiased", AttrType::Bool, "False"},
  });
  for (std::string_view op : {"sum", "max", "min", "mean", "prod", "all", "any"}) {
    INFO(std::string(op));
    CHECK(attrs_name(sig(op)) == "ReduceAttrs");
    CHECK(arg_names(sig(op)) == std::vector<std::string>{"data"});
  }
  CHECK(arg_names(sig("variance")) == std::vector<std::string>{"data", "mean"});
}

TEST_CASE("TopKAttrs has the key relay.attrs.TopkAttrs", "[ops][schema]") {
  const AttrSchema& s = schema("relay.attrs.TopkAttrs");
  CHECK(s.name == "TopKAttrs");
  CHECK(&schema("TopKAttrs") == &s);
  check_fields("TopKAttrs", {
      {"k", AttrType::Integer, "REQUIRED"},
      {"axis", AttrType::Int, "-1"},
      {"ret_type", AttrType::String, "\"both\""},
      {"is_ascend", AttrType::Bool, "False"},
      {"dtype", AttrType::DType, "\"\""},
  });
  CHECK(sig("topk").attrs == &s);
  CHECK(sig("dyn.topk").attrs == &s);
  CHECK(arg_names(sig("dyn.topk")) == std::vector<std::string>{"data", "k"});
}

TEST_CASE("reshape: newshape is required", "[ops][schema]") {
  check_fields("ReshapeAttrs", {
      {"newshape", AttrType::IntegerArray, "REQUIRED"},
      {"allowzero", AttrType::Bool, "False"},
  });
  const OpSignature& r = sig("reshape");
  CHECK(arg_names(r) == std::vector<std::string>{"data"});
  CHECK(attrs_name(r) == "ReshapeAttrs");
  CHECK(r.attrs_registered);
  CHECK(attrs_name(sig("contrib_reverse_reshape")) == "ReshapeAttrs");
  CHECK(arg_names(sig("dyn.reshape")) == std::vector<std::string>{"data", "newshape"});
}

TEST_CASE("InitOpAttrs: shape is required and zeros/ones take no inputs", "[ops][schema]") {
  check_fields("InitOpAttrs", {
      {"shape", AttrType::IntegerArray, "REQUIRED"},
      {"dtype", AttrType::DType, "\"\""},
  });
  for (std::string_view op : {"zeros", "ones"}) {
    INFO(std::string(op));
    CHECK(sig(op).args.empty());
    CHECK(attrs_name(sig(op)) == "InitOpAttrs");
  }
  CHECK(arg_names(sig("full")) == std::vector<std::string>{"fill_value"});
  CHECK(arg_names(sig("broadcast_to")) == std::vector<std::string>{"data"});
  CHECK(arg_names(sig("dyn.full")) == std::vector<std::string>{"fill_value", "shape"});
  // collapse_sum_to builds InitOpAttrs without registering them.
  CHECK(attrs_name(sig("collapse_sum_to")) == "InitOpAttrs");
  CHECK_FALSE(sig("collapse_sum_to").attrs_registered);
}

TEST_CASE("strided_slice attrs and inputs", "[ops][schema]") {
  check_fields("StridedSliceAttrs", {
      {"begin", AttrType::IntegerArray, "REQUIRED"},
      {"end", AttrType::IntegerArray, "REQUIRED"},
      {"strides", AttrType::IntegerArray, "REQUIRED"},
      {"slice_mode", AttrType::String, "\"end\""},
      {"axes", AttrType::IntegerArray, "REQUIRED"},
  });
  CHECK(arg_names(sig("strided_slice")) == std::vector<std::string>{"data"});
  // Positional: four inputs (slice_mode is an attribute).
  CHECK(arg_names(sig("dyn.strided_slice")) ==
        std::vector<std::string>{"data", "begin", "end", "strides"});
  CHECK(arg_names(sig("strided_set")) ==
        std::vector<std::string>{"data", "v", "begin", "end", "strides"});
}

TEST_CASE("nn.batch_norm and the normalisations", "[ops][schema]") {
  const OpSignature& bn = sig("nn.batch_norm");
  CHECK(arg_names(bn) ==
        std::vector<std::string>{"data", "gamma", "beta", "moving_mean", "moving_var"});
  CHECK(attrs_name(bn) == "BatchNormAttrs");
  check_fields("BatchNormAttrs", {
      {"axis", AttrType::Int, "1"},
      {"epsilon", AttrType::Double, "1e-05"},
      {"center", AttrType::Bool, "True"},
      {"scale", AttrType::Bool, "True"},
  });
  CHECK(arg_names(sig("nn.layer_norm")) == std::vector<std::string>{"data", "gamma", "beta"});
  CHECK(schema("LayerNormAttrs").find_field("axis")->default_text == "-1");
  CHECK(schema("GroupNormAttrs").fields[0].name == "num_groups");
}

TEST_CASE("tuple-taking ops have a single input", "[ops][schema]") {
  for (std::string_view op : {"concatenate", "stack", "meshgrid", "einsum"}) {
    INFO(std::string(op));
    CHECK(arg_names(sig(op)) == std::vector<std::string>{"data"});
  }
  CHECK(attrs_name(sig("concatenate")) == "ConcatenateAttrs");
  check_fields("ConcatenateAttrs", {{"axis", AttrType::Int, "0"}});
  check_fields("StackAttrs", {{"axis", AttrType::Integer, "0"}});
  CHECK(arg_names(sig("adv_index")) == std::vector<std::string>{"inputs"});
}

TEST_CASE("operators without attributes", "[ops][schema]") {
  const OpSignature& add = sig("add");
  CHECK(arg_names(add) == std::vector<std::string>{"lhs", "rhs"});
  CHECK(add.attrs == nullptr);
  CHECK(add.attrs_registered);
  CHECK(sig("less_equal").attrs == nullptr);
  CHECK(arg_names(sig("where")) == std::vector<std::string>{"condition", "x", "y"});
  CHECK(sig("nn.relu").attrs == nullptr);
  CHECK(arg_names(sig("cast_like")) == std::vector<std::string>{"data", "dtype_like"});
}

TEST_CASE("nn.dense, nn.conv2d and friends", "[ops][schema]") {
  CHECK(arg_names(sig("nn.dense")) == std::vector<std::string>{"data", "weight"});
  CHECK(attrs_name(sig("nn.dense")) == "DenseAttrs");
  CHECK(arg_names(sig("nn.conv2d")) == std::vector<std::string>{"data", "weight"});
  for (std::string_view op : {"nn.conv2d", "nn.contrib_conv2d_NCHWc",
                              "nn.contrib_depthwise_conv2d_NCHWc", "nn.conv2d_backward_weight",
                              "nn.contrib_conv2d_gemm_without_weight_transform", "qnn.conv2d"}) {
    INFO(std::string(op));
    CHECK(attrs_name(sig(op)) == "Conv2DAttrs");
  }
  CHECK(arg_names(sig("nn.conv2d_backward_weight")) == std::vector<std::string>{"grad", "data"});
  CHECK(arg_names(sig("nn.deformable_conv2d")) ==
        std::vector<std::string>{"data", "offset", "weight"});
  CHECK(arg_names(sig("nn.batch_matmul")) == std::vector<std::string>{"tensor_a", "tensor_b"});
}

TEST_CASE("ops registering a struct other than the one they build", "[ops][schema]") {
  // §3.0: nn.avg_pool2d_grad registers MaxPool2DAttrs, nn.contrib_dense_pack DenseAttrs.
  const OpSignature& g = sig("nn.avg_pool2d_grad");
  CHECK(attrs_name(g) == "MaxPool2DAttrs");
  CHECK(g.attrs_registered);
  CHECK(arg_names(g) == std::vector<std::string>{"out_grad", "data"});
  CHECK(attrs_name(sig("nn.contrib_dense_pack")) == "DenseAttrs");
  CHECK(sig("nn.contrib_dense_pack").attrs_registered);
}

TEST_CASE("ops whose attrs type is not registered", "[ops][schema]") {
  std::set<std::string> unregistered;
  for (const OpSignature& s : all_op_signatures())
    if (!s.attrs_registered) unregistered.insert(std::string(s.name));
  CHECK(unregistered == std::set<std::string>{
                            "annotation.cast_hint",
                            "annotation.compiler_begin",
                            "annotation.compiler_end",
                            "annotation.with_funcid",
                            "collapse_sum_to",
                            "cumprod",
                            "cumsum",
                            "dft",
                            "dyn.expand_dims",
                            "nn.dilate",
                            "scatter_elements",
                            "scatter_nd",
                            "stft",
                            "trilu",
                            "unique",
                            "vision.all_class_non_max_suppression",
                            "vision.get_valid_counts",
                            "vision.non_max_suppression",
                            "vision.proposal",
                            "vision.regular_non_max_suppression",
                            "vision.roi_align",
                            "vision.roi_pool",
                        });
  CHECK(attrs_name(sig("cumsum")) == "ScanopAttrs");
  check_fields("ScanopAttrs", {
      {"axis", AttrType::Integer, "None"},
      {"dtype", AttrType::DType, "\"\""},
      {"exclusive", AttrType::Bool, "False"},
  });
  CHECK(attrs_name(sig("dyn.expand_dims")) == "DynExpandDimsAttrs");
  CHECK(attrs_name(sig("annotation.compiler_end")) == "CompilerAttrs");
}

TEST_CASE("arange: Expr-typed required fields", "[ops][schema]") {
  check_fields("ArangeAttrs", {
      {"start", AttrType::Expr, "REQUIRED"},
      {"stop", AttrType::Expr, "REQUIRED"},
      {"step", AttrType::Expr, "REQUIRED"},
      {"dtype", AttrType::DType, "REQUIRED"},
  });
  CHECK(arg_names(sig("arange")) == std::vector<std::string>{"start", "end", "step"});
}

TEST_CASE("double defaults are written as floats", "[ops][schema]") {
  check_fields("LRNAttrs", {
      {"size", AttrType::Int, "5"},
      {"axis", AttrType::Int, "1"},
      {"bias", AttrType::Double, "2.0"},
      {"alpha", AttrType::Double, "0.0001"},
      {"beta", AttrType::Double, "0.75"},
  });
  CHECK(schema("DropoutAttrs").fields[0].default_text == "0.5");
  CHECK(schema("LeakyReluAttrs").fields[0].default_text == "0.25");
  CHECK(schema("SequenceMaskAttrs").fields[0].default_text == "0.0");
  check_fields("ClipAttrs", {
      {"a_min", AttrType::Double, "REQUIRED"},
      {"a_max", AttrType::Double, "REQUIRED"},
  });
}

TEST_CASE("array-valued defaults", "[ops][schema]") {
  // Declared Array<IndexExpr> in TVM but holding FloatImm (printed `[1f]`): read as doubles.
  check_fields("MultiBoxPriorAttrs", {
      {"sizes", AttrType::DoubleArray, "[1.0]"},
      {"ratios", AttrType::DoubleArray, "[1.0]"},
      {"steps", AttrType::DoubleArray, "[-1.0, -1.0]"},
      {"offsets", AttrType::DoubleArray, "[0.5, 0.5]"},
      {"clip", AttrType::Bool, "False"},
  });
  check_fields("PadAttrs", {
      {"pad_width", AttrType::IndexArrayArray, "REQUIRED"},
      {"pad_mode", AttrType::String, "\"constant\""},
  });
  check_fields("SpaceToBatchNDAttrs", {
      {"block_shape", AttrType::IntegerArray, "[1, 1]"},
      {"paddings", AttrType::IndexArrayArray, "REQUIRED"},
      {"pad_value", AttrType::Double, "0.0"},
  });
  const AttrSchema& r = schema("Resize2DAttrs");
  REQUIRE(r.fields.size() == 10);
  CHECK(r.fields[1].name == "roi");
  CHECK(r.fields[1].type == AttrType::DoubleArray);
  CHECK(r.fields[4].name == "coordinate_transformation_mode");
  CHECK(r.fields[4].default_text == "\"half_pixel\"");
  CHECK(r.fields[6].default_text == "-0.5");
}

TEST_CASE("object-typed fields", "[ops][schema]") {
  const AttrField* vd = schema("OnDeviceAttrs").find_field("virtual_device");
  REQUIRE(vd != nullptr);
  CHECK(vd->type == AttrType::Object);
  CHECK(vd->opaque_default);
  CHECK_FALSE(vd->required);
  CHECK(schema("CallLoweredAttrs").fields[0].opaque_default);
  check_fields("SplitAttrs", {
      {"indices_or_sections", AttrType::Object, "REQUIRED"},
      {"axis", AttrType::Int, "0"},
  });
  check_fields("DeviceCopyAttrs", {
      {"src_virtual_device", AttrType::Object, "REQUIRED"},
      {"dst_virtual_device", AttrType::Object, "REQUIRED"},
  });
  CHECK(schema("SparseTransposeAttrs").fields.empty());
  CHECK(schema("SparseTransposeAttrs").complete);
}

TEST_CASE("internal and backend-only operators", "[ops][schema]") {
  CHECK(sig("parser.MetaRef").args.empty());
  CHECK(attrs_name(sig("parser.MetaRef")) == "MetaRefAttrs");
  CHECK(sig("torch_op").args.empty());
  check_fields("TorchFunctionAttrs", {
      {"serialized_function", AttrType::String, "\"\""},
      {"len", AttrType::Int, "-1"},
  });
  CHECK(attrs_name(sig("vm.invoke_tvm_op")) == "DictAttrs");
  CHECK_FALSE(schema("DictAttrs").complete);
  CHECK(arg_names(sig("on_device")) == std::vector<std::string>{"body"});
  CHECK(arg_names(sig("call_lowered")) == std::vector<std::string>{"func", "call_args"});
}

TEST_CASE("quantized operators", "[ops][schema]") {
  const OpSignature& add = sig("qnn.add");
  CHECK(arg_names(add) == std::vector<std::string>{"lhs", "rhs", "lhs_scale", "lhs_zero_point",
                                                   "rhs_scale", "rhs_zero_point", "output_scale",
                                                   "output_zero_point"});
  CHECK(attrs_name(add) == "BroadcastAttrs");
  CHECK(add.attrs->complete);
  const AttrSchema& rq = schema("RequantizeAttrs");
  REQUIRE(rq.fields.size() == 4);
  CHECK(rq.fields[2].name == "compute_dtype");
  CHECK(rq.fields[2].default_text == "\"None\"");
  const AttrSchema& q = schema("QuantizeAttrs");
  REQUIRE(q.fields.size() == 2);
  CHECK(q.fields[0].name == "out_dtype");
  CHECK(q.fields[0].required);
  CHECK(attrs_name(sig("qnn.simulated_dequantize")) == "DequantizeAttrs");
  CHECK(attrs_name(sig("qnn.contrib_dense_pack")) == "DensePackAttrs");
  CHECK(sig("qnn.tanh").attrs == nullptr);
  CHECK(arg_names(sig("contrib.ethosu.binary_elementwise")) ==
        std::vector<std::string>{"ifm", "ifm2", "lut"});
  CHECK(attrs_name(sig("contrib.ethosu.pooling")) == "EthosuPoolingAttrs");
}

TEST_CASE("signature docs state the rule", "[ops][schema]") {
  CHECK(sig("nn.dense").doc.find("units") != std::string_view::npos);
  CHECK(sig("isnan").doc.find("bool") != std::string_view::npos);
  CHECK(sig("equal").doc.find("bool") != std::string_view::npos);
  CHECK(sig("argwhere").doc.find("int32") != std::string_view::npos);
}
