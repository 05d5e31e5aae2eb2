#include "lang/base/explain.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "lang/base/diagnostic.h"
#include "lang/base/embedded.h"

namespace relay {

extern const EmbeddedFile kErrorExplanations[];

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string pad4(std::string_view digits) {
  std::string s(digits);
  if (s.size() < 4) s.insert(0, 4 - s.size(), '0');
  return s;
}

long number_of(std::string_view code) {
  return code.size() > 1 ? std::strtol(std::string(code.substr(1)).c_str(), nullptr, 10) : 0;
}

}  // namespace

std::string normalize_code(std::string_view code) {
  while (!code.empty() && std::isspace(static_cast<unsigned char>(code.front()))) code.remove_prefix(1);
  while (!code.empty() && std::isspace(static_cast<unsigned char>(code.back()))) code.remove_suffix(1);
  std::string s(code);
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (s.size() >= 2 && std::isalpha(static_cast<unsigned char>(s[0])) &&
      all_digits(std::string_view(s).substr(1)))
    return s.substr(0, 1) + pad4(std::string_view(s).substr(1));
  if (all_digits(s)) {
    // A bare number: the error code unless only a warning has that number.
    std::string e = "E" + pad4(s), w = "W" + pad4(s);
    return !find_diag_code(e) && find_diag_code(w) ? w : e;
  }
  return s;
}

std::string_view explanation(std::string_view code) {
  return find_embedded(kErrorExplanations, normalize_code(code) + ".md");
}

std::vector<std::string_view> similar_codes(std::string_view code, size_t max) {
  std::string norm = normalize_code(code);
  struct Candidate {
    size_t distance;
    long gap;
    std::string_view code;
  };
  std::vector<Candidate> found;
  for (const auto& k : all_diag_kinds()) {
    size_t d = edit_distance(norm, k.code, 2);
    if (d == 0 || d > 2) continue;
    found.push_back({d, std::labs(number_of(norm) - number_of(k.code)), k.code});
  }
  std::sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.gap != b.gap) return a.gap < b.gap;
    return a.code < b.code;
  });
  std::vector<std::string_view> out;
  for (size_t i = 0; i < found.size() && i < max; ++i) out.push_back(found[i].code);
  return out;
}

}  // namespace relay
