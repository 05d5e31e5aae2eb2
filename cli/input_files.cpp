#include "cli/input_files.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace relay::cli {

namespace {

bool is_relay_file(const std::filesystem::path& p) {
  std::string ext = p.extension().string();
  return ext == ".relay" || ext == ".rly";
}

}  // namespace

bool expand_inputs(const std::vector<std::string>& inputs, std::vector<std::string>* files) {
  namespace fs = std::filesystem;
  bool ok = true;
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (in == "-" || !fs::is_directory(in, ec)) {
      files->push_back(in);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(in, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (it->is_regular_file(ec) && is_relay_file(it->path())) found.push_back(it->path().string());
    }
    if (ec) {
      std::fprintf(stderr, "error: cannot read directory `%s`: %s\n", in.c_str(), ec.message().c_str());
      ok = false;
    }
    std::sort(found.begin(), found.end());
    files->insert(files->end(), found.begin(), found.end());
  }
  return ok;
}

}  // namespace relay::cli
