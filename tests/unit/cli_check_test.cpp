// `relay check` as a user runs it: exit codes, directories, unreadable inputs.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

struct Outcome {
  int status = -1;
  std::string err;  // stderr
};

Outcome check(const std::string& args) {
  std::string cmd = std::string(RELAY_BINARY) + " check --color=never " + args + " 2>&1 >/dev/null";
  Outcome o;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return o;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) o.err.append(buf, n);
  int st = pclose(p);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return o;
}

void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char tmpl[] = "/tmp/relay-check-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_CASE("relay check: a directory means every .relay/.rly file below it", "[cli]") {
  TempDir dir;
  std::filesystem::create_directories(dir.path / "sub");
  write(dir.path / "good.relay", "#[version = \"0.0.5\"]\ndef @main(%x: float32) { %x }\n");
  write(dir.path / "sub" / "bad.rly", "#[version = \"0.0.5\"]\ndef @main(%x: float32) { %y }\n");
  write(dir.path / "notes.txt", "not relay at all {{{");
  Outcome o = check(dir.path.string());
  CHECK(o.status == 1);
  CHECK(o.err.find("bad.rly:2:") != std::string::npos);
  CHECK(o.err.find("E0040") != std::string::npos);
  CHECK(o.err.find("notes.txt") == std::string::npos);

  std::filesystem::remove(dir.path / "sub" / "bad.rly");
  Outcome clean = check(dir.path.string());
  CHECK(clean.status == 0);
  CHECK(clean.err.empty());
}

TEST_CASE("relay check: exit codes for usage and unreadable inputs", "[cli]") {
  CHECK(check("").status == 2);
  CHECK(check("--no-such-option x.relay").status == 2);
  CHECK(check("--error-format=xml x.relay").status == 2);
  Outcome missing = check("/nonexistent/file.relay");
  CHECK(missing.status == 1);
  CHECK(missing.err.find("cannot read `/nonexistent/file.relay`") != std::string::npos);
}
