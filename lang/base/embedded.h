// Files compiled into the binary (cmake/Embed.cmake): error explanations, the prelude.
#pragma once

#include <string_view>

namespace relay {

struct EmbeddedFile {
  std::string_view name;  // base name, e.g. "E0040.md"
  std::string_view data;
};

// Finds `name` in a null-terminated EmbeddedFile array; empty data when absent.
inline std::string_view find_embedded(const EmbeddedFile* files, std::string_view name) {
  for (; !files->name.empty(); ++files)
    if (files->name == name) return files->data;
  return {};
}

}  // namespace relay
