#include "interpreter/eval/run_inputs.h"

#include <map>
#include <random>

#include "interpreter/runtime/dispatch.h"
#include "interpreter/runtime/npy.h"
#include "lang/types/type.h"

namespace relay::rt {

namespace {

std::string shape_text(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + ")";
}

// Fills `a` from a seeded generator: floats from a standard normal, integers in [0, 10),
// bools fair coins. Deterministic for a seed.
void fill_random(const NDArray& a, std::mt19937_64& gen) {
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> small(0, 9);
  for (int64_t i = 0; i < a.size(); ++i) {
    if (a.dtype().is_float()) a.set_double(i, normal(gen));
    else if (a.dtype().is_bool()) a.set_int(i, small(gen) % 2);
    else a.set_int(i, small(gen));
  }
}

}  // namespace

std::optional<std::vector<NDArray>> bind_inputs(const FuncDef& entry, const InferredTypes* types,
                                                    const EntryInputs& inputs, DiagnosticBag& diags) {
  const auto& params = entry.fn->params;
  std::map<std::string, std::string, std::less<>> given;
  bool ok = true;
  for (const auto& [name, path] : inputs.files) {
    bool known = false;
    for (const VarDecl* p : params) known |= p->name == name;
    if (!known) {
      std::string list;
      for (const VarDecl* p : params) list += (list.empty() ? "" : ", ") + ("%" + std::string(p->name));
      diags.emit(DiagKind::BadEntryArgument, entry.name_span,
                 {"`--arg " + name + "=...` names no parameter of `@" + std::string(entry.name) + "`",
                  "parameters: " + (list.empty() ? "none" : list)});
      ok = false;
      continue;
    }
    given[name] = path;
  }
  std::mt19937_64 gen(inputs.random_seed.value_or(0));
  std::vector<NDArray> out;
  // symbolic dimension -> the size seen first, and where: the parameter and its axis
  struct DimSeen {
    int64_t size;
    std::string param;
    size_t axis;
  };
  std::map<std::string, DimSeen> dim_values;
  for (const VarDecl* p : params) {
    Ty t = types ? types->type_of(p) : nullptr;
    const auto* tensor = t && t->kind == TyKind::Tensor ? static_cast<const TensorTy*>(t) : nullptr;
    const std::string pname = "%" + std::string(p->name);
    const std::string declared = t ? type_to_string(t) : "an unknown type";
    auto it = given.find(p->name);
    if (it == given.end() && !inputs.random_seed) {
      diags.emit(DiagKind::BadEntryArgument, p->span,
                 {"missing an argument for `" + pname + "`", "declared `" + declared + "`"})
          .help("pass it with `--arg " + std::string(p->name) + "=FILE.npy`, or use `--random-inputs SEED`");
      ok = false;
      continue;
    }
    if (!tensor) {
      diags.emit(DiagKind::BadEntryArgument, p->span,
                 {"`" + pname + "` has type `" + declared + "`; only tensor parameters can be given from the command line",
                  "not a tensor"});
      ok = false;
      continue;
    }
    if (it == given.end()) {  // random
      Shape shape;
      for (const Dim& d : tensor->shape) {
        auto v = d.constant_value();
        if (!v) {
          diags.emit(DiagKind::BadEntryArgument, p->span,
                     {"cannot make a random input for `" + pname + "`: its shape `" + declared + "` is not fully known",
                      "shape has unknown dimensions"})
              .help("pass it with `--arg " + std::string(p->name) + "=FILE.npy`");
          ok = false;
          break;
        }
        shape.push_back(*v);
      }
      if (!ok) continue;
      try {
        NDArray a = NDArray::empty(shape, tensor->dtype);
        fill_random(a, gen);
        out.push_back(a);
      } catch (const RuntimeError& e) {
        diags.emit(DiagKind::BadEntryArgument, p->span, {e.what(), "for this parameter"});
        ok = false;
      }
      continue;
    }
    NDArray a;
    try {
      a = read_npy(it->second);
    } catch (const RuntimeError& e) {
      diags.emit(DiagKind::BadEntryArgument, p->span, {e.what(), "for this parameter"});
      ok = false;
      continue;
    }
    std::string problem;
    if (a.dtype() != tensor->dtype) {
      problem = "has dtype " + dtype_name(a.dtype());
    } else if (a.ndim() != tensor->shape.size()) {
      problem = "has shape " + shape_text(a.shape());
    } else {
      for (size_t d = 0; d < a.ndim() && problem.empty(); ++d) {
        const Dim& dim = tensor->shape[d];
        if (auto v = dim.constant_value()) {
          if (*v != a.dim(d)) problem = "has shape " + shape_text(a.shape());
        } else if (!dim.is_any() && dim.symbols().size() == 1 && dim.symbols()[0] == dim.to_string()) {
          // A dimension name: the same size wherever it appears.
          const std::string name = dim.to_string();
          auto [seen, fresh] = dim_values.emplace(name, DimSeen{a.dim(d), pname, d});
          if (!fresh && seen->second.size != a.dim(d))
            problem = "has shape " + shape_text(a.shape()) + ": `" + name + "` is " + std::to_string(a.dim(d)) +
                      " in its axis " + std::to_string(d) + " and " + std::to_string(seen->second.size) + " in " +
                      (seen->second.param == pname ? "its" : "`" + seen->second.param + "`'s") + " axis " +
                      std::to_string(seen->second.axis);
        }
      }
    }
    if (!problem.empty()) {
      diags.emit(DiagKind::BadEntryArgument, p->span,
                 {"`" + it->second + "` " + problem + ", but `" + pname + "` is declared `" + declared + "`",
                  "declared here"});
      ok = false;
      continue;
    }
    out.push_back(a);
  }
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace relay::rt
