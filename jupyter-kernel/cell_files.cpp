#include "jupyter-kernel/cell_files.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace relay::kernel {

uint32_t murmur2_x86_32(std::string_view bytes, uint32_t seed) {
  constexpr uint32_t m = 0x5bd1e995;
  constexpr int r = 24;
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  size_t n = bytes.size();
  uint32_t h = seed ^ static_cast<uint32_t>(n);
  // Whole 4-byte blocks, read little-endian whatever the machine's byte order.
  for (; n >= 4; p += 4, n -= 4) {
    uint32_t k = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
    k *= m;
    k ^= k >> r;
    k *= m;
    h *= m;
    h ^= k;
  }
  // The last 1 to 3 bytes.
  switch (n) {
    case 3: h ^= uint32_t{p[2]} << 16; [[fallthrough]];
    case 2: h ^= uint32_t{p[1]} << 8; [[fallthrough]];
    case 1:
      h ^= uint32_t{p[0]};
      h *= m;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return h;
}

CellFiles::CellFiles() {
  const char* tmp = std::getenv("TMPDIR");
  std::filesystem::path dir = tmp && *tmp ? tmp : "/tmp";
  prefix_ = (dir / ("relay_" + std::to_string(::getpid()))).string() + "/";
}

std::string CellFiles::path_of(std::string_view code) const {
  return prefix_ + std::to_string(murmur2_x86_32(code, kSeed)) + suffix_;
}

namespace {

bool write_file(const std::string& path, std::string_view text, std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace

bool CellFiles::dump(std::string_view code, std::string* path, std::string* error) const {
  *path = path_of(code);
  return write_file(*path, code, error);
}

bool CellFiles::write_extra(const std::string& name, std::string_view text, std::string* path,
                            std::string* error) const {
  *path = prefix_ + name;
  return write_file(*path, text, error);
}

}  // namespace relay::kernel
