// `relay run` as a user runs it: results on stdout, --out files, seeded inputs, exit codes.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "interpreter/runtime/npy.h"

namespace {

struct Outcome {
  int status = -1;
  std::string out;
};

Outcome run(const std::string& args, const std::string& stderr_path = "/dev/null") {
  std::string cmd = std::string(RELAY_BINARY) + " run --color=never " + args + " 2>" + stderr_path;
  Outcome o;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return o;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) o.out.append(buf, n);
  int st = pclose(p);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return o;
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char tmpl[] = "/tmp/relay-run-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

}  // namespace

TEST_CASE("relay run: a tuple result saved as .npz keyed by tuple paths", "[cli][run]") {
  TempDir dir;
  const std::string prog = dir.file("t.relay", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  (%x, (negative(%x), 3i64))
}
)");
  relay::rt::NDArray x = relay::rt::NDArray::empty({2}, relay::DataType::float_(32));
  x.data<float>()[0] = 1.5f;
  x.data<float>()[1] = -2;
  relay::rt::write_npy((dir.path / "x.npy").string(), x);
  const std::string npz = (dir.path / "out.npz").string();
  Outcome o = run(prog + " --arg %x=" + (dir.path / "x.npy").string() + " --out " + npz);
  REQUIRE(o.status == 0);
  CHECK(o.out == "([ 1.5 -2. ], ([-1.5  2. ], 3))\n");
  auto arrays = relay::rt::read_npz(npz);
  REQUIRE(arrays.size() == 3);
  CHECK(arrays[0].first == "0");
  CHECK(arrays[1].first == "1.0");
  CHECK(arrays[2].first == "1.1");
  CHECK(arrays[1].second.get_double(0) == -1.5);
  CHECK(arrays[2].second.get_int(0) == 3);
  // A tuple cannot go to a .npy file.
  CHECK(run(prog + " --random-inputs 1 --out " + (dir.path / "x2.npy").string()).status == 1);
}

TEST_CASE("relay run: seeded random inputs are reproducible", "[cli][run]") {
  TempDir dir;
  const std::string prog = dir.file("r.relay", "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(3), float32]) { %x }\n");
  Outcome a = run(prog + " --random-inputs 7"), b = run(prog + " --random-inputs 7"), c = run(prog + " --random-inputs 8");
  REQUIRE(a.status == 0);
  CHECK(a.out == b.out);
  CHECK(a.out != c.out);
}

TEST_CASE("relay run: --entry and usage errors", "[cli][run]") {
  TempDir dir;
  const std::string prog = dir.file("e.relay", "#[version = \"0.0.5\"]\ndef @main() { 1 }\ndef @two() { (1, 2) }\n");
  CHECK(run(prog).out == "1\n");
  CHECK(run(prog + " --entry @two").out == "(1, 2)\n");
  CHECK(run(prog + " --entry nope").status == 1);
  CHECK(run(prog + " --arg").status == 2);
  CHECK(run(prog + " --out x.txt").status == 2);
  CHECK(run("").status == 2);
  // counts are whole numbers: a sign or a suffix is a usage error, not 2^64 - 3 (a
  // benchmark that never ends, four billion threads) or 10
  for (const char* bad : {"--bench -3", "--threads -1", "--threads 100000", "--jit-threshold -1", "--max-depth -1",
                          "--max-depth 10abc", "--random-inputs -1", "--bench 0", "--threads 4x"}) {
    INFO(bad);
    CHECK(run(prog + " " + bad).status == 2);
  }
  CHECK(run(prog + " --threads 2 --bench 1 --max-depth 100 --random-inputs 0").status == 0);
}

TEST_CASE("relay run: --jit-wait compiles a hot function before the call that made it hot returns", "[cli][run]") {
  TempDir dir;
  const std::string prog = dir.file("w.relay",
                                    "#[version = \"0.0.5\"]\n"
                                    "def @f(%x: Tensor[(4), float32]) -> Tensor[(4), float32] { add(%x, 1f) }\n"
                                    "def @main(%x: Tensor[(4), float32]) {\n"
                                    "  let %a = @f(%x);\n  let %b = @f(%a);\n  let %c = @f(%b);\n  %c\n}\n");
  const std::string report = (dir.path / "report.txt").string();
  // The second call reaches the threshold and is compiled on the spot: it and the third
  // run native, whatever the machine's speed (in the background they may all interpret).
  const Outcome o = run(prog + " --random-inputs 3 --jit-threshold 2 --jit-wait --jit-report", report);
  REQUIRE(o.status == 0);
  std::ifstream in(report);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO(text);
  CHECK(text.find("@f(Tensor[(4), float32])\n  native      calls: 2 native, 1 interpreted") != std::string::npos);
  // the same values as the interpreter
  CHECK(o.out == run(prog + " --random-inputs 3 --jit=off").out);
}
