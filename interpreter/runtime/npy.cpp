#include "interpreter/runtime/npy.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include "interpreter/runtime/zip.h"

namespace relay::rt {

namespace {

std::string read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RuntimeError("cannot open `" + path + "`: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw RuntimeError("cannot write `" + path + "`: " + std::strerror(errno));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw RuntimeError("cannot write `" + path + "`: " + std::strerror(errno));
}

// A small reader for the header dict: only what numpy writes.
struct HeaderReader {
  std::string_view s;
  size_t i = 0;
  const std::string& name;
  [[noreturn]] void fail(const std::string& what) const {
    throw RuntimeError("`" + name + "` is not a valid .npy file: " + what);
  }
  void skip() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t')) ++i;
  }
  bool eat(char c) {
    skip();
    if (i < s.size() && s[i] == c) return ++i, true;
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected `") + c + "` in the header");
  }
  std::string str() {
    skip();
    if (i >= s.size() || (s[i] != '\'' && s[i] != '"')) fail("expected a string in the header");
    char q = s[i++];
    size_t b = i;
    while (i < s.size() && s[i] != q) ++i;
    if (i >= s.size()) fail("unterminated string in the header");
    return std::string(s.substr(b, i++ - b));
  }
  bool boolean() {
    skip();
    if (s.substr(i, 4) == "True") return i += 4, true;
    if (s.substr(i, 5) == "False") return i += 5, false;
    fail("expected True or False in the header");
  }
  Shape shape() {
    expect('(');
    Shape out;
    while (!eat(')')) {
      skip();
      size_t b = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      if (b == i) fail("expected a dimension in the shape");
      if (i - b > 18) fail("a dimension in the shape is too large");
      out.push_back(std::stoll(std::string(s.substr(b, i - b))));
      skip();
      if (!eat(',') && (i >= s.size() || s[i] != ')')) fail("expected `,` or `)` in the shape");
    }
    return out;
  }
};

DataType dtype_from_descr(const std::string& d, const std::string& name, bool* swap) {
  *swap = false;
  auto unsupported = [&](const std::string& why) -> DataType {
    throw RuntimeError("`" + name + "`: unsupported dtype '" + d + "'" + why);
  };
  if (d.size() < 3 || d.size() > 4) return unsupported(" (expected bool, int, uint or float)");
  const char order = d[0], kind = d[1];
  const std::string width = d.substr(2);
  if (order != '<' && order != '>' && order != '|' && order != '=')
    return unsupported(" (unknown byte order)");
  int bytes = 0;
  if (width == "1") bytes = 1;
  else if (width == "2") bytes = 2;
  else if (width == "4") bytes = 4;
  else if (width == "8") bytes = 8;
  else return unsupported(" (unsupported element size)");
  DataType t;
  if (kind == 'b' && bytes == 1) t = DataType::bool_();
  else if (kind == 'i') t = DataType::int_(bytes * 8);
  else if (kind == 'u') t = DataType::uint_(bytes * 8);
  else if (kind == 'f' && bytes >= 2) t = DataType::float_(bytes * 8);
  else return unsupported(" (expected bool, int, uint or float)");
  *swap = order == '>' && bytes > 1;
  return t;
}

}  // namespace

std::string npy_descr(DataType t) {
  if (t.is_bool()) return "|b1";
  int bytes = t.bits / 8;
  char kind = t.code == DataType::Int ? 'i' : t.code == DataType::UInt ? 'u' : 'f';
  if (t.code == DataType::BFloat) throw RuntimeError("bfloat16 tensors cannot be saved as .npy (numpy has no bfloat16)");
  return std::string(bytes == 1 ? "|" : "<") + kind + std::to_string(bytes);
}

NDArray parse_npy(std::string_view bytes, const std::string& name) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != "\x93NUMPY")
    throw RuntimeError("`" + name + "` is not a .npy file (no \\x93NUMPY magic)");
  const unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t header_len, at;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    at = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw RuntimeError("`" + name + "` is truncated");
    header_len = 0;
    for (int k = 0; k < 4; ++k) header_len |= static_cast<size_t>(static_cast<unsigned char>(bytes[8 + k])) << (8 * k);
    at = 12;
  } else {
    throw RuntimeError("`" + name + "`: unsupported .npy version " + std::to_string(major));
  }
  if (bytes.size() < at + header_len) throw RuntimeError("`" + name + "` is truncated (in the header)");
  HeaderReader r{bytes.substr(at, header_len), 0, name};
  std::string descr;
  bool fortran = false, have_descr = false, have_shape = false;
  Shape shape;
  r.expect('{');
  while (!r.eat('}')) {
    std::string key = r.str();
    r.expect(':');
    if (key == "descr") descr = r.str(), have_descr = true;
    else if (key == "fortran_order") fortran = r.boolean();
    else if (key == "shape") shape = r.shape(), have_shape = true;
    else r.fail("unexpected key '" + key + "'");
    if (!r.eat(',')) {
      r.expect('}');
      break;
    }
  }
  if (!have_descr || !have_shape) r.fail("the header lacks 'descr' or 'shape'");
  bool swap;
  DataType dtype = dtype_from_descr(descr, name, &swap);
  // Check the data size before allocating: a small file must not make us reserve the
  // gigabytes its header claims.
  const int64_t count = shape_size(shape);
  const uint64_t elem_bytes = dtype_bytes(dtype);
  const size_t data_at = at + header_len;
  const uint64_t have = bytes.size() - data_at;
  if (count != 0 && static_cast<uint64_t>(count) > have / elem_bytes)
    throw RuntimeError("`" + name + "` is truncated: its header promises shape " + shape_to_string(shape) + " of " +
                       descr + " (" + std::to_string(count) + " elements of " + std::to_string(elem_bytes) +
                       " bytes), the file has " + std::to_string(have) + " bytes after the header");
  if (have != static_cast<uint64_t>(count) * elem_bytes)
    throw RuntimeError("`" + name + "` has " + std::to_string(have - static_cast<uint64_t>(count) * elem_bytes) +
                       " bytes after the data its header describes (shape " + shape_to_string(shape) + " of " +
                       descr + ")");
  NDArray a = NDArray::empty(shape, dtype);
  if (a.nbytes()) std::memcpy(a.raw(), bytes.data() + data_at, a.nbytes());
  const size_t elem = dtype_bytes(dtype);
  if (swap) {
    auto* p = static_cast<unsigned char*>(a.raw());
    for (int64_t i = 0; i < a.size(); ++i)
      for (size_t k = 0; k < elem / 2; ++k) std::swap(p[i * elem + k], p[i * elem + elem - 1 - k]);
  }
  if (fortran && a.ndim() > 1) {
    // Column-major on disk: transpose into row-major.
    NDArray c = NDArray::empty(shape, dtype);
    const auto strides = contiguous_strides(shape);
    std::vector<int64_t> idx(shape.size(), 0);
    for (int64_t f = 0; f < a.size(); ++f) {
      int64_t off = 0;
      for (size_t d = 0; d < shape.size(); ++d) off += idx[d] * strides[d];
      std::memcpy(static_cast<char*>(c.raw()) + off * elem, static_cast<const char*>(a.raw()) + f * elem, elem);
      for (size_t d = 0; d < shape.size(); ++d) {  // first index fastest
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    return c;
  }
  return a;
}

std::string serialize_npy(const NDArray& a) {
  std::string header =
      "{'descr': '" + npy_descr(a.dtype()) + "', 'fortran_order': False, 'shape': " + shape_to_string(a.shape()) + ", }";
  // Version 1.0 stores the header length in 16 bits; longer headers (thousands of
  // dimensions) need 2.0. The data starts on a 64-byte boundary either way.
  const bool v2 = 10 + header.size() + 1 + 63 > 0xffff;
  const size_t prefix = v2 ? 12 : 10;
  header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(v2 ? 2 : 1);
  out += '\x00';
  for (size_t k = 0; k < prefix - 8; ++k) out += static_cast<char>((header.size() >> (8 * k)) & 0xff);
  out += header;
  out.append(static_cast<const char*>(a.raw()), a.nbytes());
  return out;
}

NDArray read_npy(const std::string& path) { return parse_npy(read_file_bytes(path), path); }

void write_npy(const std::string& path, const NDArray& a) { write_file_bytes(path, serialize_npy(a)); }

std::vector<std::pair<std::string, NDArray>> read_npz(const std::string& path) {
  std::vector<std::pair<std::string, NDArray>> out;
  for (ZipMember& m : read_zip(read_file_bytes(path), path)) {
    constexpr std::string_view kSuffix = ".npy";
    if (m.name.size() < kSuffix.size() || m.name.compare(m.name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
      throw RuntimeError("`" + path + "`: member `" + m.name + "` is not a .npy array");
    NDArray a = parse_npy(m.data, path + ": " + m.name);
    m.data.clear();
    m.data.shrink_to_fit();
    out.emplace_back(m.name.substr(0, m.name.size() - kSuffix.size()), std::move(a));
  }
  return out;
}

void write_npz(const std::string& path, const std::vector<std::pair<std::string, NDArray>>& arrays) {
  std::vector<ZipMember> members;
  members.reserve(arrays.size());
  for (const auto& [key, a] : arrays) members.push_back({key + ".npy", serialize_npy(a)});
  write_file_bytes(path, write_zip(members));
}

}  // namespace relay::rt
