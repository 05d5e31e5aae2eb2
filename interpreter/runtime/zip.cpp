#include "interpreter/runtime/zip.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <unordered_set>

#include "interpreter/runtime/ndarray.h"

namespace relay::rt {

namespace {

constexpr uint32_t kLocalSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kEnd64Sig = 0x06064b50;
constexpr uint32_t kEnd64LocatorSig = 0x07064b50;
constexpr size_t kLocalSize = 30, kCentralSize = 46, kEndSize = 22, kEnd64Size = 56, kLocatorSize = 20;
constexpr uint16_t kZip64ExtraId = 0x0001;
constexpr uint32_t kMax32 = 0xffffffffu;
constexpr uint16_t kMax16 = 0xffffu;
// A member larger than this cannot hold a tensor the runtime would accept.
constexpr uint64_t kMaxMemberBytes = TensorObj::kMaxBytes + (uint64_t{1} << 20);
// Deflate cannot expand data more than about 1032:1.
constexpr uint64_t kMaxDeflateRatio = 1032;

class Reader {
 public:
  Reader(std::string_view bytes, const std::string& name) : b_(bytes), name_(name) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw RuntimeError("`" + name_ + "` is not a valid .npz (zip) archive: " + what);
  }
  // [at, at + n) lies inside the archive.
  bool fits(uint64_t at, uint64_t n) const { return at <= b_.size() && n <= b_.size() - at; }
  void need(uint64_t at, uint64_t n, const char* what) const {
    if (!fits(at, n)) fail(std::string(what) + " lies outside the file (truncated or corrupt offsets)");
  }
  uint64_t le(uint64_t at, int bytes) const {
    uint64_t v = 0;
    for (int k = 0; k < bytes; ++k) v |= static_cast<uint64_t>(static_cast<unsigned char>(b_[at + k])) << (8 * k);
    return v;
  }
  uint16_t u16(uint64_t at) const { return static_cast<uint16_t>(le(at, 2)); }
  uint32_t u32(uint64_t at) const { return static_cast<uint32_t>(le(at, 4)); }
  uint64_t u64(uint64_t at) const { return le(at, 8); }
  std::string_view view(uint64_t at, uint64_t n) const { return b_.substr(at, n); }
  size_t size() const { return b_.size(); }
  const std::string& name() const { return name_; }

 private:
  std::string_view b_;
  const std::string& name_;
};

struct Directory {
  uint64_t entries = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t end = 0;  // where the directory must end (the first end record)
};

Directory find_directory(const Reader& r) {
  if (r.size() < kEndSize) r.fail("too short to hold an end-of-central-directory record");
  // The end record is followed by a comment of at most 65535 bytes: scan back for it.
  const uint64_t lowest = r.size() >= kEndSize + kMax16 ? r.size() - kEndSize - kMax16 : 0;
  uint64_t at = r.size() - kEndSize;
  for (;; --at) {
    if (r.u32(at) == kEndSig && at + kEndSize + r.u16(at + 20) == r.size()) break;
    if (at == lowest) r.fail("no end-of-central-directory record (not a zip file, or truncated)");
  }
  Directory d;
  const uint16_t disk = r.u16(at + 4), cd_disk = r.u16(at + 6);
  d.entries = r.u16(at + 10);
  d.size = r.u32(at + 12);
  d.offset = r.u32(at + 16);
  d.end = at;
  if (at >= kLocatorSize && r.u32(at - kLocatorSize) == kEnd64LocatorSig) {
    const uint64_t loc = at - kLocatorSize;
    const uint64_t end64 = r.u64(loc + 8);
    if (end64 > loc || loc - end64 < kEnd64Size) r.fail("the ZIP64 end record offset is out of range");
    if (r.u32(end64) != kEnd64Sig) r.fail("no ZIP64 end record where its locator points");
    if (r.u32(end64 + 16) != 0 || r.u32(end64 + 20) != 0) r.fail("multi-disk archives are not supported");
    d.entries = r.u64(end64 + 32);
    d.size = r.u64(end64 + 40);
    d.offset = r.u64(end64 + 48);
    d.end = end64;
  } else if (disk != 0 || cd_disk != 0 || r.u16(at + 8) != d.entries) {
    r.fail("multi-disk archives are not supported");
  } else if (d.entries == kMax16 || d.size == kMax32 || d.offset == kMax32) {
    r.fail("the end record needs a ZIP64 record, which is missing");
  }
  if (d.offset > d.end || d.size > d.end - d.offset)
    r.fail("the central directory (offset " + std::to_string(d.offset) + ", " + std::to_string(d.size) +
           " bytes) lies outside the file");
  if (d.entries > d.size / kCentralSize)
    r.fail("the end record claims " + std::to_string(d.entries) + " members, more than the central directory holds");
  return d;
}

struct Entry {
  std::string name;
  uint16_t flags = 0, method = 0;
  uint32_t crc = 0;
  uint64_t csize = 0, usize = 0, local = 0;
};

// Replaces saturated 32-bit fields with the ZIP64 extra field's 64-bit values.
void apply_zip64_extra(const Reader& r, uint64_t at, uint64_t len, Entry& e, bool disk_saturated) {
  const uint64_t end = at + len;
  bool need_u = e.usize == kMax32, need_c = e.csize == kMax32, need_o = e.local == kMax32;
  while (at + 4 <= end) {
    const uint16_t id = r.u16(at), n = r.u16(at + 2);
    at += 4;
    if (n > end - at) r.fail("an extra field of member `" + e.name + "` overruns its header");
    if (id == kZip64ExtraId) {
      uint64_t p = at;
      auto take = [&](bool needed, uint64_t& field) {
        if (!needed) return;
        if (p + 8 > at + n) r.fail("the ZIP64 extra field of member `" + e.name + "` is too short");
        field = r.u64(p);
        p += 8;
      };
      take(need_u, e.usize);
      take(need_c, e.csize);
      take(need_o, e.local);
      need_u = need_c = need_o = false;
    }
    at += n;
  }
  if (need_u || need_c || need_o || disk_saturated)
    r.fail("member `" + e.name + "` needs a ZIP64 extra field, which is missing");
}

std::vector<Entry> read_directory(const Reader& r, const Directory& d) {
  std::vector<Entry> entries;
  entries.reserve(d.entries);
  uint64_t at = d.offset;
  const uint64_t end = d.offset + d.size;
  for (uint64_t i = 0; i < d.entries; ++i) {
    if (at > end || end - at < kCentralSize) r.fail("the central directory is truncated");
    if (r.u32(at) != kCentralSig) r.fail("bad signature in central directory entry " + std::to_string(i));
    Entry e;
    e.flags = r.u16(at + 8);
    e.method = r.u16(at + 10);
    e.crc = r.u32(at + 16);
    e.csize = r.u32(at + 20);
    e.usize = r.u32(at + 24);
    const uint64_t name_len = r.u16(at + 28), extra_len = r.u16(at + 30), comment_len = r.u16(at + 32);
    const uint16_t disk = r.u16(at + 34);
    e.local = r.u32(at + 42);
    if (end - at - kCentralSize < name_len + extra_len + comment_len)
      r.fail("central directory entry " + std::to_string(i) + " overruns the directory");
    e.name = std::string(r.view(at + kCentralSize, name_len));
    apply_zip64_extra(r, at + kCentralSize + name_len, extra_len, e, disk == kMax16);
    if (disk != 0 && disk != kMax16) r.fail("multi-disk archives are not supported");
    at += kCentralSize + name_len + extra_len + comment_len;
    entries.push_back(std::move(e));
  }
  return entries;
}

std::string inflate_raw(const Reader& r, const Entry& e, std::string_view in) {
  std::string out(e.usize, '\0');
  z_stream zs{};
  if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) throw RuntimeError("zlib could not start inflating `" + r.name() + "`");
  uint64_t in_given = 0, out_given = 0;
  unsigned char spare;  // room for one byte too many, to detect data beyond usize
  bool spare_in_use = false;
  std::string problem;
  for (;;) {
    if (zs.avail_in == 0 && in_given < in.size()) {
      const uint64_t n = std::min<uint64_t>(in.size() - in_given, UINT_MAX);
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + in_given));
      zs.avail_in = static_cast<uInt>(n);
      in_given += n;
    }
    if (zs.avail_out == 0) {
      if (out_given < out.size()) {
        const uint64_t n = std::min<uint64_t>(out.size() - out_given, UINT_MAX);
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + out_given);
        zs.avail_out = static_cast<uInt>(n);
        out_given += n;
      } else if (!spare_in_use) {
        zs.next_out = &spare;
        zs.avail_out = 1;
        spare_in_use = true;
      } else {
        problem = "decompresses to more than the " + std::to_string(e.usize) + " bytes the directory records";
        break;
      }
    }
    const int ret = inflate(&zs, Z_NO_FLUSH);
    if (ret == Z_STREAM_END) {
      if (spare_in_use && zs.avail_out == 0)
        problem = "decompresses to more than the " + std::to_string(e.usize) + " bytes the directory records";
      else if (zs.total_out != e.usize)
        problem = "decompresses to " + std::to_string(zs.total_out) + " bytes, the directory records " +
                  std::to_string(e.usize);
      break;
    }
    if (ret == Z_BUF_ERROR && zs.avail_in == 0 && in_given == in.size()) {
      problem = "the compressed data is truncated";
      break;
    }
    if (ret != Z_OK && ret != Z_BUF_ERROR) {
      problem = std::string("corrupt compressed data (") + (zs.msg ? zs.msg : "zlib error") + ")";
      break;
    }
  }
  inflateEnd(&zs);
  if (!problem.empty()) r.fail("member `" + e.name + "` " + problem);
  return out;
}

uint32_t crc32_of(std::string_view data) {
  uLong crc = crc32(0L, Z_NULL, 0);
  for (size_t at = 0; at < data.size();) {
    const size_t n = std::min<size_t>(data.size() - at, UINT_MAX);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(data.data() + at), static_cast<uInt>(n));
    at += n;
  }
  return static_cast<uint32_t>(crc);
}

std::string read_member(const Reader& r, const Entry& e) {
  if (e.flags & 1) r.fail("member `" + e.name + "` is encrypted");
  if (e.method != 0 && e.method != 8)
    r.fail("member `" + e.name + "` uses compression method " + std::to_string(e.method) +
           " (only stored and deflated members are supported)");
  if (e.usize > kMaxMemberBytes) r.fail("member `" + e.name + "` is too large (" + std::to_string(e.usize) + " bytes)");
  r.need(e.local, kLocalSize, ("the local header of member `" + e.name + "`").c_str());
  if (r.u32(e.local) != kLocalSig) r.fail("bad local header signature for member `" + e.name + "`");
  const uint64_t name_len = r.u16(e.local + 26), extra_len = r.u16(e.local + 28);
  r.need(e.local + kLocalSize, name_len + extra_len, ("the local header of member `" + e.name + "`").c_str());
  if (r.view(e.local + kLocalSize, name_len) != e.name)
    r.fail("member `" + e.name + "` has a different name in its local header");
  const uint64_t data_at = e.local + kLocalSize + name_len + extra_len;
  r.need(data_at, e.csize, ("the data of member `" + e.name + "`").c_str());
  const std::string_view raw = r.view(data_at, e.csize);
  std::string data;
  if (e.method == 0) {
    if (e.csize != e.usize)
      r.fail("stored member `" + e.name + "` has compressed size " + std::to_string(e.csize) +
             " but uncompressed size " + std::to_string(e.usize));
    data = std::string(raw);
  } else {
    if (e.usize > e.csize * kMaxDeflateRatio + 1024)
      r.fail("member `" + e.name + "` claims to inflate from " + std::to_string(e.csize) + " to " +
             std::to_string(e.usize) + " bytes, more than deflate allows");
    data = inflate_raw(r, e, raw);
  }
  if (crc32_of(data) != e.crc) r.fail("CRC-32 mismatch in member `" + e.name + "` (corrupt data)");
  return data;
}

void put(std::string& out, uint64_t v, int bytes) {
  for (int k = 0; k < bytes; ++k) out += static_cast<char>((v >> (8 * k)) & 0xff);
}

}  // namespace

std::vector<ZipMember> read_zip(std::string_view archive, const std::string& archive_name) {
  const Reader r(archive, archive_name);
  const Directory d = find_directory(r);
  std::vector<ZipMember> members;
  for (const Entry& e : read_directory(r, d)) members.push_back({e.name, read_member(r, e)});
  return members;
}

std::string write_zip(const std::vector<ZipMember>& members, const ZipWriteOptions& options) {
  constexpr uint16_t kDosDate = (0 << 9) | (1 << 5) | 1;  // 1980-01-01, the earliest DOS date
  constexpr uint32_t kUnixRw = 0600u << 16;               // external attributes: -rw-------
  std::string out, dir;
  std::unordered_set<std::string_view> names;
  for (const ZipMember& m : members) {
    if (m.name.size() > kMax16) throw RuntimeError("zip member name too long (" + std::to_string(m.name.size()) + " bytes)");
    if (!names.insert(m.name).second) throw RuntimeError("duplicate zip member `" + m.name + "`");
    const uint64_t offset = out.size(), size = m.data.size();
    const bool big_size = options.force_zip64 || size >= kMax32;
    const bool big_offset = offset >= kMax32;
    const uint16_t version = big_size || big_offset ? 45 : 20;
    const uint32_t crc = crc32_of(m.data);

    put(out, kLocalSig, 4);
    put(out, version, 2);
    put(out, 0, 2);  // flags
    put(out, 0, 2);  // stored
    put(out, 0, 2);  // time
    put(out, kDosDate, 2);
    put(out, crc, 4);
    put(out, big_size ? kMax32 : size, 4);
    put(out, big_size ? kMax32 : size, 4);
    put(out, m.name.size(), 2);
    put(out, big_size ? 20 : 0, 2);
    out += m.name;
    if (big_size) {
      put(out, kZip64ExtraId, 2);
      put(out, 16, 2);
      put(out, size, 8);
      put(out, size, 8);
    }
    out += m.data;

    const uint16_t extra = (big_size ? 16 : 0) + (big_offset ? 8 : 0);
    put(dir, kCentralSig, 4);
    put(dir, (3 << 8) | version, 2);  // made by: Unix
    put(dir, version, 2);
    put(dir, 0, 2);
    put(dir, 0, 2);
    put(dir, 0, 2);
    put(dir, kDosDate, 2);
    put(dir, crc, 4);
    put(dir, big_size ? kMax32 : size, 4);
    put(dir, big_size ? kMax32 : size, 4);
    put(dir, m.name.size(), 2);
    put(dir, extra ? extra + 4 : 0, 2);
    put(dir, 0, 2);  // comment
    put(dir, 0, 2);  // disk
    put(dir, 0, 2);  // internal attributes
    put(dir, kUnixRw, 4);
    put(dir, big_offset ? kMax32 : offset, 4);
    dir += m.name;
    if (extra) {
      put(dir, kZip64ExtraId, 2);
      put(dir, extra, 2);
      if (big_size) {
        put(dir, size, 8);
        put(dir, size, 8);
      }
      if (big_offset) put(dir, offset, 8);
    }
  }
  const uint64_t dir_offset = out.size(), dir_size = dir.size(), count = members.size();
  out += dir;
  const bool zip64_end = count >= kMax16 || dir_offset >= kMax32 || dir_size >= kMax32;
  if (zip64_end) {
    const uint64_t end64 = out.size();
    put(out, kEnd64Sig, 4);
    put(out, kEnd64Size - 12, 8);  // size of the rest of the record
    put(out, (3 << 8) | 45, 2);
    put(out, 45, 2);
    put(out, 0, 4);
    put(out, 0, 4);
    put(out, count, 8);
    put(out, count, 8);
    put(out, dir_size, 8);
    put(out, dir_offset, 8);
    put(out, kEnd64LocatorSig, 4);
    put(out, 0, 4);
    put(out, end64, 8);
    put(out, 1, 4);
  }
  put(out, kEndSig, 4);
  put(out, 0, 2);
  put(out, 0, 2);
  put(out, zip64_end ? kMax16 : count, 2);
  put(out, zip64_end ? kMax16 : count, 2);
  put(out, zip64_end ? kMax32 : dir_size, 4);
  put(out, zip64_end ? kMax32 : dir_offset, 4);
  put(out, 0, 2);  // comment
  return out;
}

}  // namespace relay::rt
