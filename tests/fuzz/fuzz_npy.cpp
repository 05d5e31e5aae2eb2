// libFuzzer target over the tensor file readers (`relay run --arg x.npy`, .npz archives):
// the input is parsed as a .npy file and as a zip archive whose members are parsed as
// .npy files. Malformed input must end in RuntimeError, never a crash, a sanitizer
// report, or an allocation the input's size does not justify.
#include <cstdint>
#include <string_view>

#include "interpreter/runtime/npy.h"
#include "interpreter/runtime/zip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    relay::rt::NDArray a = relay::rt::parse_npy(bytes, "fuzz.npy");
    // What parsed must serialise and parse back to the same bytes of data.
    relay::rt::NDArray b = relay::rt::parse_npy(relay::rt::serialize_npy(a), "round-trip.npy");
    if (a.shape() != b.shape() || a.nbytes() != b.nbytes()) __builtin_trap();
  } catch (const relay::rt::RuntimeError&) {
  }
  try {
    for (const auto& m : relay::rt::read_zip(bytes, "fuzz.npz")) {
      try {
        relay::rt::parse_npy(m.data, m.name);
      } catch (const relay::rt::RuntimeError&) {
      }
    }
  } catch (const relay::rt::RuntimeError&) {
  }
  return 0;
}
