// libFuzzer target over `relay import`'s readers: the input is decoded as an ONNX model
// (protobuf wire format, importer/onnx/onnx_model.cpp) and, when it decodes, imported
// (the converters and the type-checker probes they run); and as a bare TensorProto
// (`relay import --tensor`). Malformed input must end in WireError or ModelError, or an
// import with problems; never a crash or a sanitizer report.
#include <cstdint>
#include <string_view>

#include "importer/onnx/import.h"
#include "importer/protobuf_wire.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace ox = relay::importer::onnx;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    ox::Model m = ox::parse_model(bytes);
    ox::ImportResult r = ox::import_model(m, {});
    if (!r.text && r.problems.empty()) __builtin_trap();  // a failure must say why
  } catch (const relay::importer::WireError&) {
  } catch (const ox::ModelError&) {
  }
  try {
    ox::parse_tensor(bytes);
  } catch (const relay::importer::WireError&) {
  } catch (const ox::ModelError&) {
  }
  return 0;
}
