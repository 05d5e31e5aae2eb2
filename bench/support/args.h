// The benchmarks' command lines: `--flag VALUE` and `--flag` options read in one loop,
//
//   for (ArgReader r(argc, argv, usage); r.next();) {
//     if (r.is("--lines")) o.lines = r.number();
//     else if (r.is("--check")) o.check = true;
//     else r.unknown();
//   }
//
// with `--help`/`-h` calling usage(0), and an unknown flag or a missing value usage(2).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace relay::bench {

class ArgReader {
 public:
  using Usage = void (*)(int status);
  ArgReader(int argc, char** argv, Usage usage) : argc_(argc), argv_(argv), usage_(usage) {}

  // The next flag; false after the last. `--help` and `-h` call usage(0) here.
  bool next() {
    if (++i_ >= argc_) return false;
    flag_ = argv_[i_];
    if (flag_ == "--help" || flag_ == "-h") usage_(0);
    return true;
  }
  bool is(std::string_view flag) const { return flag_ == flag; }
  // The flag's value (the next argument).
  std::string value() {
    if (i_ + 1 >= argc_) usage_(2);
    return argv_[++i_];
  }
  uint64_t number() { return std::strtoull(value().c_str(), nullptr, 10); }
  // A repetition count: at least 1.
  int count() { return std::max(1, std::atoi(value().c_str())); }
  [[noreturn]] void unknown() {
    usage_(2);
    std::exit(2);  // (usage exits; this keeps the compiler sure of it)
  }

 private:
  int argc_;
  char** argv_;
  Usage usage_;
  int i_ = 0;
  std::string flag_;
};

}  // namespace relay::bench
