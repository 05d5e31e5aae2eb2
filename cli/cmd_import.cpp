// `relay import MODEL.onnx [-o OUT] [--shape NAME=D,D,...]`: an ONNX model as a Relay
// program (importer/onnx/import.h), checked through the run driver before it is written,
// and `relay import --tensor T.pb -o T.npy`: an ONNX TensorProto (the test data's
// input_0.pb) as a .npy file for `relay run --arg`.
//
// Problems are E0121 diagnostics shown against a listing of the graph, one line per node
// (a binary model has no source lines of its own).
// Exit status: 0 written, 1 errors, 2 usage error.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "cli/commands.h"
#include "cli/diagnostic_output.h"
#include "cli/generated_text.h"
#include "cli/option_value.h"
#include "importer/onnx/convert.h"
#include "importer/onnx/import.h"
#include "importer/protobuf_wire.h"
#include "interpreter/runtime/npy.h"

namespace relay::cli {

namespace {

void import_usage(FILE* out) {
  std::fprintf(out,
               "usage: relay import MODEL.onnx [-o OUT.relay] [--shape NAME=D,D,...]...\n"
               "                    [--bind NAME=VALUE.npy|VALUE.pb]...\n"
               "       relay import --tensor TENSOR.pb -o OUT.npy\n"
               "       relay import --list-ops\n"
               "                    [--error-format=human|json] [--error-limit=N] [--color=auto|always|never]\n"
               "\n"
               "Translates an ONNX model into a Relay program: @main takes the graph's inputs and\n"
               "returns its outputs; initializers become constants in the #[metadata] section, so\n"
               "the file runs by itself (`relay run OUT.relay --arg NAME=x.npy`).\n"
               "  -o OUT          write to OUT instead of stdout\n"
               "  --shape N=D,..  sizes for input N's dims (for symbolic dims such as `batch`)\n"
               "  --bind N=FILE   fix input N to a value (.npy or a TensorProto .pb) when importing:\n"
               "                  it becomes a constant, so a shape, axes or sizes input folds\n"
               "  --tensor T.pb   convert a serialized ONNX TensorProto to .npy (needs -o)\n"
               "  --list-ops      print the ONNX operators the importer converts\n"
               "Every node is tried; each one that cannot be imported is an error E0121.\n"
               "Exit status: 0 ok, 1 errors, 2 usage error.\n");
}

// The whole file (`-`: stdin), through the reader every command uses; false after saying why.
bool read_binary(const std::string& path, std::string* bytes) {
  std::string error;
  if (read_source_file(path, bytes, &error)) return true;
  std::fprintf(stderr, "error: %s\n", error.c_str());
  return false;
}

// `--shape NAME=1,3,224,224`.
bool parse_shape(const std::string& spec, importer::onnx::ImportOptions& options) {
  size_t eq = spec.rfind('=');
  if (eq == std::string::npos || eq == 0) return false;
  std::vector<int64_t> dims;
  std::stringstream ss(spec.substr(eq + 1));
  std::string item;
  while (std::getline(ss, item, ',')) {
    char* end = nullptr;
    long long d = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end || d < 0) return false;
    dims.push_back(d);
  }
  options.input_shapes[spec.substr(0, eq)] = dims;
  return true;
}

// `--bind NAME=FILE`: the input's value as an ONNX tensor, from .npy or a TensorProto.
bool bind_input(const std::string& spec, importer::onnx::ImportOptions& options) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
    std::fprintf(stderr, "error: `--bind` expects NAME=FILE.npy or NAME=FILE.pb, not `%s`\n", spec.c_str());
    return false;
  }
  std::string name = spec.substr(0, eq), path = spec.substr(eq + 1);
  importer::onnx::TensorData t;
  try {
    if (path.size() > 3 && path.substr(path.size() - 3) == ".pb") {
      std::string bytes;
      if (!read_binary(path, &bytes)) return false;
      t = importer::onnx::parse_tensor(bytes);
    } else {
      rt::NDArray a = rt::read_npy(path);
      t.elem_type = importer::onnx::elem_type_of(a.dtype());
      t.dims.assign(a.shape().begin(), a.shape().end());
      t.bytes.assign(static_cast<const char*>(a.raw()), a.nbytes());
    }
  } catch (const importer::WireError& e) {
    std::fprintf(stderr, "error: `%s` is not a serialized TensorProto: %s at byte %zu\n", path.c_str(), e.what(), e.offset);
    return false;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: `%s`: %s\n", path.c_str(), e.what());
    return false;
  }
  options.bound_inputs[name] = std::move(t);
  return true;
}

int convert_tensor(const std::string& path, const std::string& output) {
  if (output.empty()) {
    std::fprintf(stderr, "error: `--tensor` needs `-o OUT.npy`\n");
    return kExitUsage;
  }
  std::string bytes;
  if (!read_binary(path, &bytes)) return kExitErrors;
  try {
    importer::onnx::TensorData t = importer::onnx::parse_tensor(bytes);
    std::optional<DataType> dtype = importer::onnx::relay_dtype(t.elem_type);
    if (!dtype || t.external) {
      std::fprintf(stderr, "error: `%s`: tensors of %s are not supported\n", path.c_str(),
                   t.external ? "external data" : importer::onnx::elem_type_name(t.elem_type).c_str());
      return kExitErrors;
    }
    rt::NDArray a = rt::NDArray::empty(rt::Shape(t.dims.begin(), t.dims.end()), *dtype);
    if (a.nbytes() != t.bytes.size()) throw importer::onnx::ModelError("the data does not match the shape");
    if (!t.bytes.empty()) std::memcpy(a.raw(), t.bytes.data(), t.bytes.size());
    rt::write_npy(output, a);
  } catch (const importer::WireError& e) {
    std::fprintf(stderr, "error: `%s` is not a serialized TensorProto: %s at byte %zu\n", path.c_str(), e.what(), e.offset);
    return kExitErrors;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: `%s`: %s\n", path.c_str(), e.what());
    return kExitErrors;
  }
  return kExitOk;
}

// The graph as text, one line per node after a header line; `line_of[n]` is node n's span.
struct Listing {
  std::string text;
  std::vector<std::pair<uint32_t, uint32_t>> lines;  // node -> [begin, end)
  std::pair<uint32_t, uint32_t> header;
};

Listing listing_of(const importer::onnx::Model& m) {
  Listing l;
  std::string header = "graph " + (m.graph.name.empty() ? std::string("(unnamed)") : m.graph.name) + "(";
  bool first = true;
  for (const auto& in : m.graph.inputs) {
    header += (first ? "" : ", ") + in.name;
    first = false;
  }
  header += ") -> (";
  for (size_t i = 0; i < m.graph.outputs.size(); ++i) header += (i ? ", " : "") + m.graph.outputs[i].name;
  header += ")";
  l.header = {0, static_cast<uint32_t>(header.size())};
  l.text = header + "\n";
  for (size_t n = 0; n < m.graph.nodes.size(); ++n) {
    std::string line = "node " + std::to_string(n) + ": " + importer::onnx::node_line(m.graph.nodes[n]);
    uint32_t begin = static_cast<uint32_t>(l.text.size());
    l.text += line + "\n";
    l.lines.push_back({begin, begin + static_cast<uint32_t>(line.size())});
  }
  return l;
}

}  // namespace

int cmd_import(const Args& args) {
  OutputOptions out_opts;
  std::string file, output, tensor;
  importer::onnx::ImportOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* opt) { return option_value(args, i, opt); };
    if (a == "--help" || a == "-h") {
      import_usage(stdout);
      return kExitOk;
    } else if (a == "--list-ops") {
      for (const std::string& op : importer::onnx::supported_operators()) std::printf("%s\n", op.c_str());
      return kExitOk;
    } else if (a == "-o" || a == "--tensor") {
      const std::string* v = value(a.c_str());
      if (!v) return kExitUsage;
      (a == "-o" ? output : tensor) = *v;
    } else if (a == "--bind") {
      const std::string* v = value("--bind");
      if (!v) return kExitUsage;
      if (!bind_input(*v, options)) return kExitErrors;
    } else if (a == "--shape") {
      const std::string* v = value("--shape");
      if (!v) return kExitUsage;
      if (!parse_shape(*v, options)) {
        std::fprintf(stderr, "error: `--shape` expects NAME=D,D,... with sizes >= 0, not `%s`\n", v->c_str());
        return kExitUsage;
      }
    } else if (!take_argument_of_one_file(args, i, out_opts, import_usage, "import", file)) {
      return kExitUsage;
    }
  }
  if (!tensor.empty()) return convert_tensor(tensor, output);
  if (file.empty()) {
    import_usage(stderr);
    return kExitUsage;
  }

  std::string bytes;
  if (!read_binary(file, &bytes)) return kExitErrors;
  // Messages name the file by its last component; the `-->` line gives the path.
  const std::string shown = std::filesystem::path(file).filename().string();
  DiagnosticPrinter printer(out_opts);
  SourceManager sources;
  DiagnosticBag diags;
  importer::onnx::Model model;
  try {
    model = importer::onnx::parse_model(bytes);
  } catch (const importer::WireError& e) {
    FileId id = sources.add(file, "");
    diags.emit(DiagKind::ImportFailed, Span{id, 0, 0},
               {shown, "it is not a protobuf-encoded ONNX model", "the file's bytes"})
        .note(std::string(e.what()) + " at byte " + std::to_string(e.offset));
    std::string_view head(bytes.data(), std::min<size_t>(bytes.size(), 64));
    if (head.find("#[version") != std::string_view::npos || head.rfind("//", 0) == 0 || head.rfind("def ", 0) == 0)
      diags.items().back().help("this looks like Relay text, which `relay check` and `relay run` read as it is");
  } catch (const importer::onnx::ModelError& e) {
    FileId id = sources.add(file, "");
    diags.emit(DiagKind::ImportFailed, Span{id, 0, 0}, {shown, e.what(), "the file's bytes"});
  }
  std::optional<importer::onnx::ImportResult> result;
  if (!diags.has_errors()) {
    result = importer::onnx::import_model(model, options);
    if (!result->problems.empty()) {
      Listing listing = listing_of(model);
      FileId id = sources.add(file + " (graph listing)", listing.text);
      for (const auto& p : result->problems) {
        auto [b, e] = p.node >= 0 ? listing.lines[static_cast<size_t>(p.node)] : listing.header;
        std::string label = p.node >= 0 ? "this " + model.graph.nodes[static_cast<size_t>(p.node)].op_type + " node" : "the graph";
        Diagnostic& d = diags.emit(DiagKind::ImportFailed, Span{id, b, e}, {shown, p.message, label});
        if (p.more) d.note("the same problem occurs in " + std::to_string(p.more) + " more node(s)");
        if (p.message.find("must be known when importing") != std::string::npos)
          d.help("when that value is a graph input, `--bind NAME=FILE.npy` fixes it when importing");
        if (p.message.find("is not supported") != std::string::npos && p.message.find("operator") != std::string::npos)
          d.help("`relay import --list-ops` lists the operators the importer converts");
      }
    }
  }
  if (diags.has_errors()) {
    printer.print(diags, sources);
    printer.print_summary();
    return kExitErrors;
  }

  if (!check_generated(sources, file + " (imported)", *result->text, "main",
                       "the program imported from `" + file + "`", printer))
    return kExitErrors;
  return write_generated(output, *result->text) ? kExitOk : kExitErrors;
}

}  // namespace relay::cli
