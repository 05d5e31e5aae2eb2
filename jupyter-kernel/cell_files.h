// The files JupyterLab's debugger knows cells by. The frontend names a cell's file
// itself, from the prefix, suffix and seed the kernel reports in `debugInfo`:
//   tmpFilePrefix + decimal(murmur2_x86_32(UTF-8 bytes of the code, hashSeed)) + tmpFileSuffix
// so it can match a stack frame's source path to the cell holding that code. The kernel
// computes the same name for each cell it runs, and writes the code there when asked
// (`dumpCell`) so the path can be opened like any file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace relay::kernel {

// MurmurHash2, 32-bit, x86 (Austin Appleby's): the hash JupyterLab calls "Murmur2".
uint32_t murmur2_x86_32(std::string_view bytes, uint32_t seed);

class CellFiles {
 public:
  // Files go to `<TMPDIR or /tmp>/relay_<pid>/`.
  CellFiles();
  uint32_t seed() const { return kSeed; }
  const std::string& prefix() const { return prefix_; }
  const std::string& suffix() const { return suffix_; }
  std::string path_of(std::string_view code) const;
  // Writes `code` to its path (creating the directory); false with `error` on failure.
  bool dump(std::string_view code, std::string* path, std::string* error) const;
  // Writes `text` to `name` in the same directory (the prelude, for frames inside it).
  bool write_extra(const std::string& name, std::string_view text, std::string* path, std::string* error) const;

 private:
  static constexpr uint32_t kSeed = 0x52656c61;  // "Rela": any seed works, the frontend uses ours
  std::string prefix_, suffix_ = ".relay";
};

}  // namespace relay::kernel
