#include "lang/base/source.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace relay {

LineIndex::LineIndex(std::string_view text) {
  starts_.push_back(0);
  const char* base = text.data();
  const char* end = base + text.size();
  if (!std::memchr(base, '\r', text.size())) {
    // memchr, not a byte loop: the checking database builds one index per edit of a
    // whole file, so this is on the keystroke path, and most files have no '\r'.
    for (const char* p = base; p < end;) {
      const void* nl = std::memchr(p, '\n', static_cast<size_t>(end - p));
      if (!nl) break;
      p = static_cast<const char*>(nl) + 1;
      starts_.push_back(static_cast<uint32_t>(p - base));
    }
    return;
  }
  // "\r\n" ends a line, and so does a lone '\r', as in every editor (the lexer reports
  // it, E-code StrayCarriageReturn, but positions must still be the editor's).
  for (const char* p = base; p < end; ++p) {
    if (*p == '\n' || (*p == '\r' && (p + 1 == end || p[1] != '\n')))
      starts_.push_back(static_cast<uint32_t>(p + 1 - base));
  }
}

LineCol LineIndex::lookup(uint32_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - starts_.begin());  // 1-based
  return LineCol{line, offset - starts_[line - 1] + 1};
}

uint32_t LineIndex::line_end(std::string_view text, uint32_t line) const {
  uint32_t b = starts_[line - 1];
  uint32_t e = line < starts_.size() ? starts_[line] : static_cast<uint32_t>(text.size());
  // the terminator: "\n", "\r\n" or "\r" (the last line has none)
  if (e > b && text[e - 1] == '\n') --e;
  if (e > b && text[e - 1] == '\r') --e;
  return e;
}

std::string_view LineIndex::line_text(std::string_view text, uint32_t line) const {
  uint32_t b = starts_[line - 1];
  return text.substr(b, line_end(text, line) - b);
}

// Number of UTF-16 code units in the UTF-8 sequence starting with lead byte `c`.
// Invalid bytes count as one unit (they are shown as U+FFFD by clients).
static uint32_t utf16_units(unsigned char c, uint32_t* bytes) {
  if (c < 0x80) { *bytes = 1; return 1; }
  if ((c & 0xE0) == 0xC0) { *bytes = 2; return 1; }
  if ((c & 0xF0) == 0xE0) { *bytes = 3; return 1; }
  if ((c & 0xF8) == 0xF0) { *bytes = 4; return 2; }
  *bytes = 1;
  return 1;
}

uint32_t LineIndex::utf16_column(std::string_view text, uint32_t offset) const {
  return Utf16Cursor(text, *this).at(offset).column16;
}

Utf16Cursor::Position Utf16Cursor::at(uint32_t offset) {
  if (offset > text_.size()) offset = static_cast<uint32_t>(text_.size());
  if (!valid_ || offset < offset_ || offset >= line_end_) {
    LineCol lc = lines_.lookup(offset);
    line0_ = lc.line - 1;
    offset_ = lines_.line_start(lc.line);
    column_ = 0;
    line_end_ = lc.line < lines_.line_count() ? lines_.line_start(lc.line + 1) : UINT32_MAX;
    valid_ = true;
  }
  while (offset_ < offset) {
    uint32_t n = 1;
    column_ += utf16_units(static_cast<unsigned char>(text_[offset_]), &n);
    offset_ += n;
  }
  return {line0_, column_};
}

uint32_t LineIndex::offset_of_utf16(std::string_view text, uint32_t line0, uint32_t col16) const {
  if (line0 >= starts_.size()) return static_cast<uint32_t>(text.size());
  uint32_t i = starts_[line0];
  const uint32_t end = line_end(text, line0 + 1);
  uint32_t col = 0;
  while (i < end && col < col16) {
    uint32_t n = 1;
    col += utf16_units(static_cast<unsigned char>(text[i]), &n);
    i = std::min<uint32_t>(i + n, end);
  }
  return i;
}

SourceFile::SourceFile(FileId id_, std::string name_, std::string text_)
    : id(id_), name(std::move(name_)), text(std::move(text_)), lines(text) {}

SourceManager::SourceManager() {
  static std::atomic<uint64_t> next{1};
  serial_ = next.fetch_add(1);
}

FileId SourceManager::add(std::string name, std::string text) {
  FileId id = static_cast<FileId>(files_.size());
  files_.push_back(Slot{std::make_shared<const SourceFile>(id, std::move(name), std::move(text)), {}});
  return id;
}

std::shared_ptr<const SourceFile> SourceManager::add_shared(std::string name, std::string text) {
  FileId id = static_cast<FileId>(files_.size());
  auto file = std::make_shared<const SourceFile>(id, std::move(name), std::move(text));
  files_.push_back(Slot{nullptr, file});
  return file;
}

void SourceManager::replace(FileId id, std::string text) {
  Slot& slot = files_.at(id);
  std::string name = share(id)->name;
  slot.owned = std::make_shared<const SourceFile>(id, std::move(name), std::move(text));
  slot.borrowed.reset();
}

std::shared_ptr<const SourceFile> SourceManager::share(FileId id) const {
  const Slot& slot = files_.at(id);
  if (slot.owned) return slot.owned;
  if (auto file = slot.borrowed.lock()) return file;
  throw std::out_of_range("source file " + std::to_string(id) + " was released");
}

const SourceFile& SourceManager::get(FileId id) const {
  const Slot& slot = files_.at(id);
  if (slot.owned) return *slot.owned;
  // The owner of a shared file keeps it alive while its spans are in use.
  if (auto file = slot.borrowed.lock()) return *file;
  throw std::out_of_range("source file " + std::to_string(id) + " was released");
}

bool read_text_file(const std::string& path, std::string* text, std::string* error, std::string* reason) {
  auto fail = [&](std::string message, std::string why) {
    *error = std::move(message);
    if (reason) *reason = std::move(why);
    return false;
  };
  // a directory opens as a stream that reads nothing: it would pass for an empty file
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return fail("cannot read `" + path + "`: it is a directory", "a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const std::string system = std::strerror(errno);
    std::string why = system;  // "No such file or directory" -> "no such ...", for a label
    if (!why.empty()) why[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(why[0])));
    return fail("cannot read `" + path + "`: " + system, why);
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return fail("cannot read `" + path + "`: read error", "a read error");
  *text = ss.str();
  if (text->size() >= 0xFFFFFFF0u)
    return fail("`" + path + "` is larger than 4 GiB, which this toolchain does not read", "larger than 4 GiB");
  return true;
}

}  // namespace relay
