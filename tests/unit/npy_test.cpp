// The .npy/.npz reader and writer: round trips for every dtype and shape, files numpy
// wrote (Fortran order, big-endian, format versions 2.0/3.0, savez and
// savez_compressed archives; tests/runtime/npy_cases.py), and malformed or hostile
// input, which must give a RuntimeError and never crash (CI runs this under ASan/UBSan).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "interpreter/runtime/dispatch.h"
#include "interpreter/runtime/npy.h"
#include "interpreter/runtime/zip.h"

namespace fs = std::filesystem;
using relay::DataType;
using relay::rt::NDArray;
using relay::rt::RuntimeError;
using relay::rt::Shape;

namespace {

const fs::path kData = fs::path(RELAY_SOURCE_DIR) / "tests" / "runtime" / "npy_data";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void spit(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/relay-npy-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
};

const std::vector<DataType> kDtypes = {
    DataType::bool_(),   DataType::int_(8),    DataType::int_(16),   DataType::int_(32),
    DataType::int_(64),  DataType::uint_(8),   DataType::uint_(16),  DataType::uint_(32),
    DataType::uint_(64), DataType::float_(16), DataType::float_(32), DataType::float_(64)};

// Deterministic contents with every byte of the element exercised.
NDArray filled(const Shape& shape, DataType t, uint64_t seed = 1) {
  NDArray a = NDArray::empty(shape, t);
  auto* p = static_cast<unsigned char*>(a.raw());
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (size_t i = 0; i < a.nbytes(); ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    p[i] = static_cast<unsigned char>(x);
  }
  if (t.is_bool())
    for (size_t i = 0; i < a.nbytes(); ++i) p[i] &= 1;
  return a;
}

bool same(const NDArray& a, const NDArray& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         (a.nbytes() == 0 || std::memcmp(a.raw(), b.raw(), a.nbytes()) == 0);
}

// Compares against the manifest's description (dtype, shape, C-order values).
void check_contents(const NDArray& a, const nlohmann::json& want, const std::string& what) {
  INFO(what);
  REQUIRE(relay::dtype_name(a.dtype()) == want["dtype"].get<std::string>());
  REQUIRE(a.shape() == want["shape"].get<Shape>());
  const auto& values = want["values"];
  REQUIRE(static_cast<int64_t>(values.size()) == a.size());
  for (int64_t i = 0; i < a.size(); ++i) {
    INFO("element " << i);
    const auto& v = values[static_cast<size_t>(i)];
    if (a.dtype().is_float()) {
      const double got = a.get_double(i);
      if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s == "nan") CHECK(std::isnan(got));
        else CHECK(got == (s == "inf" ? INFINITY : -INFINITY));
      } else {
        CHECK(got == v.get<double>());
        CHECK(std::signbit(got) == std::signbit(v.get<double>()));
      }
    } else if (a.dtype().is_bool()) {
      CHECK(a.data<bool>()[i] == v.get<bool>());
    } else if (a.dtype() == DataType::uint_(64)) {
      CHECK(a.data<uint64_t>()[i] == v.get<uint64_t>());
    } else {
      CHECK(a.get_int(i) == v.get<int64_t>());
    }
  }
}

template <class F>
void expect_error(F&& f, const std::string& needle) {
  try {
    f();
    FAIL("no RuntimeError; expected one mentioning: " << needle);
  } catch (const RuntimeError& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find(needle) != std::string::npos);
  }
}

void put32(std::string& s, size_t at, uint32_t v) {
  for (int k = 0; k < 4; ++k) s[at + k] = static_cast<char>((v >> (8 * k)) & 0xff);
}
void put16(std::string& s, size_t at, uint16_t v) {
  s[at] = static_cast<char>(v & 0xff);
  s[at + 1] = static_cast<char>(v >> 8);
}
uint32_t get32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (int k = 0; k < 4; ++k) v |= static_cast<uint32_t>(static_cast<unsigned char>(s[at + k])) << (8 * k);
  return v;
}
size_t end_record(const std::string& zip) { return zip.rfind(std::string("PK\x05\x06", 4)); }

}  // namespace

TEST_CASE("npy: round trip of every dtype and shape", "[npy]") {
  const std::vector<Shape> shapes = {{}, {0}, {1}, {7}, {2, 3}, {3, 0, 2}, {2, 3, 4}, {1, 2, 1, 3, 2}, {70}};
  for (DataType t : kDtypes)
    for (const Shape& s : shapes) {
      INFO(relay::dtype_name(t) << " " << relay::rt::shape_to_string(s));
      const NDArray a = filled(s, t);
      const std::string bytes = relay::rt::serialize_npy(a);
      CHECK(bytes.size() % 64 == a.nbytes() % 64);  // the data starts 64-byte aligned
      CHECK(same(relay::rt::parse_npy(bytes, "mem"), a));
    }
  TempDir dir;
  const NDArray a = filled({4, 5}, DataType::float_(32));
  relay::rt::write_npy((dir.path / "a.npy").string(), a);
  CHECK(same(relay::rt::read_npy((dir.path / "a.npy").string()), a));
}

TEST_CASE("npy: tens of thousands of dimensions switch to format version 2.0", "[npy]") {
  const NDArray a = filled(Shape(30000, 1), DataType::int_(8));
  const std::string bytes = relay::rt::serialize_npy(a);
  CHECK(bytes[6] == 2);
  CHECK(same(relay::rt::parse_npy(bytes, "mem"), a));
}

TEST_CASE("npy: bfloat16 cannot be saved", "[npy]") {
  expect_error([] { relay::rt::serialize_npy(NDArray::zeros({2}, DataType{DataType::BFloat, 16, 1})); }, "bfloat16");
}

TEST_CASE("npy: files numpy wrote (C and Fortran order, big-endian, versions 2 and 3)", "[npy]") {
  const auto manifest = nlohmann::json::parse(slurp(kData / "manifest.json"));
  size_t files = 0;
  for (const auto& [file, entry] : manifest.items()) {
    if (fs::path(file).extension() != ".npy") continue;
    ++files;
    check_contents(relay::rt::read_npy((kData / file).string()), entry["members"][""], file);
  }
  CHECK(files >= 30);
}

TEST_CASE("npz: savez and savez_compressed archives", "[npy]") {
  const auto manifest = nlohmann::json::parse(slurp(kData / "manifest.json"));
  for (const char* file : {"savez.npz", "savez_compressed.npz"}) {
    const auto& entry = manifest[file];
    const auto arrays = relay::rt::read_npz((kData / file).string());
    REQUIRE(arrays.size() == entry["order"].size());
    for (size_t i = 0; i < arrays.size(); ++i) {
      const std::string key = entry["order"][i].get<std::string>();
      CHECK(arrays[i].first == key);
      check_contents(arrays[i].second, entry["members"][key], std::string(file) + ": " + key);
    }
  }
}

TEST_CASE("npz: round trip, and ZIP64 sizes as numpy writes them", "[npy]") {
  TempDir dir;
  std::vector<std::pair<std::string, NDArray>> arrays;
  for (size_t i = 0; i < kDtypes.size(); ++i)
    arrays.emplace_back("a" + std::to_string(i), filled({static_cast<int64_t>(i), 3}, kDtypes[i], i));
  arrays.emplace_back("scalar", filled({}, DataType::float_(64)));
  arrays.emplace_back("with.dots and spaces", filled({5}, DataType::int_(16)));
  const std::string path = (dir.path / "x.npz").string();
  relay::rt::write_npz(path, arrays);
  auto back = relay::rt::read_npz(path);
  REQUIRE(back.size() == arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i) {
    CHECK(back[i].first == arrays[i].first);
    CHECK(same(back[i].second, arrays[i].second));
  }
  relay::rt::write_npz(path, {});
  CHECK(relay::rt::read_npz(path).empty());

  std::vector<relay::rt::ZipMember> members = {{"a.npy", relay::rt::serialize_npy(arrays[3].second)},
                                               {"b.npy", relay::rt::serialize_npy(arrays[5].second)}};
  const std::string zip64 = relay::rt::write_zip(members, {.force_zip64 = true});
  const auto read = relay::rt::read_zip(zip64, "zip64");
  REQUIRE(read.size() == 2);
  CHECK(read[1].name == "b.npy");
  CHECK(read[1].data == members[1].data);
  expect_error([&] { relay::rt::write_zip({members[0], members[0]}); }, "duplicate");
}

TEST_CASE("zip: more than 65535 members use the ZIP64 end record", "[npy]") {
  std::vector<relay::rt::ZipMember> members;
  for (int i = 0; i < 70000; ++i) members.push_back({"m" + std::to_string(i), std::to_string(i)});
  const std::string zip = relay::rt::write_zip(members);
  CHECK(zip.find(std::string("PK\x06\x06", 4)) != std::string::npos);
  const auto back = relay::rt::read_zip(zip, "many");
  REQUIRE(back.size() == members.size());
  CHECK(back[69999].name == "m69999");
  CHECK(back[69999].data == "69999");
  // The ZIP64 end record's directory offset pointing past it is caught.
  std::string bad = zip;
  const size_t end64 = bad.rfind(std::string("PK\x06\x06", 4));
  put32(bad, end64 + 48, 0x7fffffffu);
  expect_error([&] { relay::rt::read_zip(bad, "many"); }, "outside the file");
}

TEST_CASE("npz: the writer's bytes are those numpy.load was checked against", "[npy]") {
  // tests/runtime/npy_cases.py --check loads relay_written.npz with numpy and Python's
  // zipfile; this test keeps that file equal to what the writer produces now
  // (RELAY_BLESS=1 rewrites it; then run the script's check).
  const NDArray ints = NDArray::empty({2, 3}, DataType::int_(32));
  for (int i = 0; i < 6; ++i) ints.set_int(i, i);
  const NDArray flags = NDArray::empty({3}, DataType::bool_());
  flags.set_int(0, 1), flags.set_int(1, 0), flags.set_int(2, 1);
  const std::vector<std::pair<std::string, NDArray>> arrays = {
      {"ints", ints},
      {"scalar", NDArray::scalar(2.5, DataType::float_(64))},
      {"empty", NDArray::empty({0, 3}, DataType::float_(32))},
      {"flags", flags}};
  const fs::path fixture = kData / "relay_written.npz";
  TempDir dir;
  const fs::path now = dir.path / "w.npz";
  relay::rt::write_npz(now.string(), arrays);
  const char* bless = std::getenv("RELAY_BLESS");
  if (bless && std::string(bless) == "1") fs::copy_file(now, fixture, fs::copy_options::overwrite_existing);
  CHECK(slurp(now) == slurp(fixture));
}

TEST_CASE("npy: malformed files are RuntimeErrors", "[npy]") {
  const std::string good = relay::rt::serialize_npy(filled({3, 2}, DataType::float_(32)));
  const size_t header_end = 10 + (static_cast<unsigned char>(good[8]) | static_cast<unsigned char>(good[9]) << 8);
  auto parse = [](const std::string& b) { return relay::rt::parse_npy(b, "bad.npy"); };
  auto with_header = [](const std::string& dict, const std::string& data) {
    std::string h = dict;
    h.append((64 - (10 + h.size() + 1) % 64) % 64, ' ');
    h += '\n';
    std::string out = "\x93NUMPY\x01";
    out += '\0';
    out += static_cast<char>(h.size() & 0xff);
    out += static_cast<char>(h.size() >> 8);
    return out + h + data;
  };

  expect_error([&] { parse(""); }, "no \\x93NUMPY magic");
  expect_error([&] { parse("GIF89a" + good.substr(6)); }, "magic");
  expect_error([&] { parse(good.substr(0, 40)); }, "truncated (in the header)");
  expect_error([&] { parse(good.substr(0, good.size() - 1)); }, "is truncated");
  expect_error([&] { parse(good + "x"); }, "1 bytes after the data");
  std::string v9 = good;
  v9[6] = 9;
  expect_error([&] { parse(v9); }, "version 9");
  const std::string data(24, '\0');
  expect_error([&] { parse(with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 3), }", data)); },
               "promises shape (3, 3)");
  expect_error([&] { parse(with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", data)); },
               "bytes after the data");
  expect_error([&] { parse(with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }", data)); },
               "unsupported dtype '<c8'");
  expect_error([&] { parse(with_header("{'descr': '<f4junk', 'fortran_order': False, 'shape': (6,), }", data)); },
               "unsupported dtype");
  expect_error([&] { parse(with_header("{'descr': '<i3', 'fortran_order': False, 'shape': (8,), }", data)); },
               "unsupported dtype");
  expect_error([&] { parse(with_header("{'descr': '<f4', 'fortran_order': False, }", data)); }, "lacks");
  expect_error([&] { parse(with_header("{'descr': '<f4', 'shape': (-6,), }", data)); }, "expected a dimension");
  expect_error([&] { parse(with_header("{'descr': '<f4', 'shape': (6,), 'extra': 1}", data)); }, "unexpected key");
  expect_error([&] { parse(with_header("{'descr': '<f4, 'shape': (6,)}", data)); }, "");
  expect_error([&] { parse(with_header("{'descr': '<f4', 'shape': (99999999999999999999,), }", data)); },
               "too large");
  // A huge claimed shape in a tiny file fails before anything is allocated.
  expect_error([&] { parse(with_header("{'descr': '<f8', 'shape': (1000000000, 1000), }", data)); }, "truncated");
  expect_error([&] { parse(with_header("{'descr': '<f8', 'shape': (4294967296, 4294967296), }", data)); }, "");
  // An empty shape whose other dimensions multiply past 64 bits has no strides: rejected
  // as numpy rejects it (found by the fuzzer: the count was 0, the strides overflowed).
  expect_error([&] { parse(with_header("{'descr': '<f2', 'fortran_order': True, 'shape': (2, 0, 4294967296, 4294967296), }", "")); },
               "more elements than fit in 64 bits");
  expect_error([&] { parse(with_header("{'descr': '<f2', 'shape': (0, 3037000500, 3037000500), }", "")); },
               "more elements than fit in 64 bits");
  // Large but representable empty shapes still read: (0, 2^31, 2^31) has strides that fit.
  CHECK(parse(with_header("{'descr': '<f4', 'shape': (0, 2147483648, 2147483648), }", "")).size() == 0);

  // Every proper prefix of a valid file is an error, never a crash.
  for (size_t n = 0; n < good.size(); ++n) {
    INFO("prefix of " << n << " bytes (header ends at " << header_end << ")");
    CHECK_THROWS_AS(parse(good.substr(0, n)), RuntimeError);
  }
  expect_error([] { relay::rt::read_npy("/nonexistent/dir/x.npy"); }, "cannot open");
}

TEST_CASE("npz: malformed archives are RuntimeErrors", "[npy]") {
  const std::string stored = slurp(kData / "savez.npz");
  const std::string deflated = slurp(kData / "savez_compressed.npz");
  REQUIRE(!stored.empty());
  REQUIRE(!deflated.empty());
  TempDir dir;
  auto load = [&](const std::string& bytes) {
    const fs::path p = dir.path / "bad.npz";
    spit(p, bytes);
    return relay::rt::read_npz(p.string());
  };
  const size_t eocd = end_record(stored);
  const size_t cd = get32(stored, eocd + 16);

  expect_error([&] { load(""); }, "too short");
  expect_error([&] { load("not a zip file at all, just some text"); }, "no end-of-central-directory record");
  expect_error([&] { load(stored.substr(0, stored.size() - 1)); }, "end-of-central-directory");
  expect_error([&] { load(stored.substr(eocd - 10)); }, "outside the file");
  std::string s = stored;
  put32(s, eocd + 16, 0xfffffff0u);  // directory offset past the end
  expect_error([&] { load(s); }, "central directory");
  s = stored;
  put32(s, eocd + 12, get32(s, eocd + 12) + 1000);  // directory size past the end
  expect_error([&] { load(s); }, "central directory");
  s = stored;
  put16(s, eocd + 8, 60000), put16(s, eocd + 10, 60000);  // more entries than fit
  expect_error([&] { load(s); }, "members");
  s = stored;
  put32(s, cd + 42, static_cast<uint32_t>(stored.size() - 10));  // local header offset near the end
  expect_error([&] { load(s); }, "outside the file");
  s = stored;
  put32(s, cd + 42, 1);  // local header offset to the wrong place
  expect_error([&] { load(s); }, "bad local header signature");
  s = stored;
  s[cd] = 'X';  // central directory signature
  expect_error([&] { load(s); }, "bad signature in central directory");
  s = stored;
  put32(s, cd + 20, get32(s, cd + 20) + 1);  // stored sizes disagree
  expect_error([&] { load(s); }, "compressed size");
  s = stored;
  s[200] ^= 0x5a;  // inside the first member's data
  expect_error([&] { load(s); }, "CRC-32 mismatch");
  s = stored;
  put16(s, cd + 10, 12);  // bzip2
  expect_error([&] { load(s); }, "compression method 12");
  s = stored;
  put16(s, cd + 8, 1);  // encrypted
  expect_error([&] { load(s); }, "encrypted");
  s = stored;
  put32(s, cd + 24, 0xffffffffu);  // ZIP64 size without the extra field
  expect_error([&] { load(s); }, "ZIP64");
  s = stored;
  s[cd + 46] = 'X';  // name differs from the local header's
  expect_error([&] { load(s); }, "different name");

  const size_t eocd_z = end_record(deflated);
  const size_t cd_z = get32(deflated, eocd_z + 16);
  s = deflated;
  put32(s, cd_z + 24, 0x7fffffffu);  // claims to inflate 2 GB out of a few bytes
  expect_error([&] { load(s); }, "more than deflate allows");
  s = deflated;
  put32(s, cd_z + 24, get32(s, cd_z + 24) - 1);
  expect_error([&] { load(s); }, "decompresses to more than");
  s = deflated;
  put32(s, cd_z + 24, get32(s, cd_z + 24) + 1);
  expect_error([&] { load(s); }, "decompresses to");
  s = deflated;
  put32(s, cd_z + 20, get32(s, cd_z + 20) - 20);  // deflate stream cut short
  expect_error([&] { load(s); }, "truncated");

  // A member that is not an array.
  const std::string text = relay::rt::write_zip({{"readme.txt", "hello"}});
  expect_error([&] { load(text); }, "not a .npy array");
  // A member whose .npy is malformed names the archive and member.
  const std::string broken = relay::rt::write_zip({{"x.npy", "\x93NUMPY junk"}});
  expect_error([&] { load(broken); }, "bad.npz: x.npy");

  // Every truncation and a few thousand corruptions: RuntimeError or success, never a crash.
  for (const std::string* archive : {&stored, &deflated}) {
    for (size_t n = 0; n < archive->size(); n += 7) CHECK_THROWS_AS(relay::rt::read_zip(archive->substr(0, n), "t"), RuntimeError);
    uint64_t x = 12345;
    for (int i = 0; i < 3000; ++i) {
      std::string m = *archive;
      for (int k = 0; k < 1 + i % 3; ++k) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        m[x % m.size()] = static_cast<char>(x >> 32);
      }
      try {
        for (auto& member : relay::rt::read_zip(m, "fuzz")) relay::rt::parse_npy(member.data, member.name);
      } catch (const RuntimeError&) {
      }
    }
  }
}
