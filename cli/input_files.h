// Turning command-line inputs into the list of files to read: a directory stands for
// every .relay/.rly file below it (sorted), anything else (a file, `-` for stdin) is
// kept as given. Shared by `relay check` and `relay fmt`.
#pragma once

#include <string>
#include <vector>

namespace relay::cli {

// Returns false (after printing an error for each) when a directory cannot be read.
bool expand_inputs(const std::vector<std::string>& inputs, std::vector<std::string>* files);

}  // namespace relay::cli
