#include "interpreter/eval/meta_constant.h"

#include <cstring>
#include <string>

namespace relay::rt {

namespace {

using json = nlohmann::json;

int64_t to_int(const json& v, const char* what) {
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_string()) {
    try {
      return std::stoll(v.get<std::string>());
    } catch (...) {
    }
  }
  throw RuntimeError(std::string("metadata: malformed ") + what);
}

}  // namespace

Value metadata_constant(const Metadata* metadata, const MetaRefExpr& ref) {
  const std::string name = "meta[" + std::string(ref.type_key) + "][" + std::to_string(ref.index) + "]";
  if (!metadata || !ref.entry) throw RuntimeError(name + " is not in the metadata section");
  if (ref.type_key != "relay.Constant") throw RuntimeError(name + " is not a tensor constant");
  const json& node = metadata->node(*ref.entry);
  const json& data = json_field(json_field(node, "attrs"), "data");
  if (data.is_null()) throw RuntimeError(name + " has no data");
  const int64_t index = to_int(data, "constant data index");
  const json& blobs = json_field(metadata->document, "b64ndarrays");
  if (!blobs.is_array() || index < 0 || static_cast<size_t>(index) >= blobs.size() || !blobs[index].is_string())
    throw RuntimeError(name + ": its data (b64ndarrays[" + std::to_string(index) + "]) is missing");
  const std::string blob = decode_base64(blobs[index].get<std::string>());
  size_t pos = 0;
  auto read = [&](void* dst, size_t n) {
    if (blob.size() - pos < n) throw RuntimeError(name + ": the tensor data is truncated");
    std::memcpy(dst, blob.data() + pos, n);
    pos += n;
  };
  uint64_t magic = 0, reserved = 0;
  int32_t device[2], ndim = 0;
  uint8_t code = 0, bits = 0;
  uint16_t lanes = 0;
  read(&magic, 8);
  if (magic != 0xDD5E40F096B4A13FULL) throw RuntimeError(name + ": not a TVM NDArray (bad magic)");
  read(&reserved, 8);
  read(device, 8);
  read(&ndim, 4);
  if (ndim < 0 || ndim > 64) throw RuntimeError(name + ": bad rank " + std::to_string(ndim));
  read(&code, 1);
  read(&bits, 1);
  read(&lanes, 2);
  Shape shape(static_cast<size_t>(ndim));
  for (auto& d : shape) read(&d, 8);
  int64_t bytes = 0;
  read(&bytes, 8);
  if (code > DataType::BFloat) throw RuntimeError(name + ": unknown dtype code " + std::to_string(code));
  NDArray a = NDArray::empty(shape, DataType{static_cast<DataType::Code>(code), bits, lanes});
  if (bytes != static_cast<int64_t>(a.nbytes()))
    throw RuntimeError(name + ": the data size " + std::to_string(bytes) + " does not match its shape " +
                       shape_to_string(shape));
  read(a.raw(), a.nbytes());
  return a;
}

}  // namespace relay::rt
