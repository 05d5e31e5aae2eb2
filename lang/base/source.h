// Source files, byte spans and line/column mapping.
//
// Every IR node carries a Span: a file id plus a half-open byte range [begin, end).
// Line/column numbers are derived on demand from a LineIndex, never stored, so spans
// stay 12 bytes and positions can be reported in any encoding (UTF-8 bytes for the
// terminal and JSON, UTF-16 code units for LSP).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace relay {

using FileId = uint32_t;

struct Span {
  FileId file = 0;
  uint32_t begin = 0;
  uint32_t end = 0;

  bool valid() const { return end >= begin; }
  uint32_t size() const { return end - begin; }
  // The smallest span covering both (same file assumed).
  static Span cover(Span a, Span b) {
    return Span{a.file, a.begin < b.begin ? a.begin : b.begin, a.end > b.end ? a.end : b.end};
  }
  bool operator==(const Span&) const = default;
};

// 1-based line and column; `column` counts bytes (UTF-8) from the line start.
struct LineCol {
  uint32_t line = 1;
  uint32_t column = 1;
};

// Maps byte offsets to lines. Built once per file in one pass over the text.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  LineCol lookup(uint32_t offset) const;
  uint32_t line_count() const { return static_cast<uint32_t>(starts_.size()); }
  // Byte offset where 1-based `line` starts.
  uint32_t line_start(uint32_t line) const { return starts_[line - 1]; }
  // The text of 1-based `line`, without its line terminator ("\n", "\r\n" or a lone
  // "\r": each ends a line, as in every editor and LSP's positions).
  std::string_view line_text(std::string_view text, uint32_t line) const;
  // Byte offset where 1-based `line`'s text ends: its terminator's first byte.
  uint32_t line_end(std::string_view text, uint32_t line) const;
  // UTF-16 column (0-based) of `offset`, as LSP counts it.
  uint32_t utf16_column(std::string_view text, uint32_t offset) const;
  // Inverse of the above: byte offset of a 0-based (line, UTF-16 column) position,
  // clamped to the line's end (before its terminator, as LSP asks).
  uint32_t offset_of_utf16(std::string_view text, uint32_t line0, uint32_t col16) const;

 private:
  std::vector<uint32_t> starts_;
};

// 0-based lines and UTF-16 columns of offsets visited in increasing order, each counted
// on from the previous offset on the same line instead of from the line's start: the
// language server converts every token of a file for semantic tokens, and on long lines
// counting from the start each time was quadratic.
class Utf16Cursor {
 public:
  Utf16Cursor(std::string_view text, const LineIndex& lines) : text_(text), lines_(lines) {}
  struct Position {
    uint32_t line0, column16;
  };
  // Any offset is accepted; going backwards or to another line costs one lookup.
  Position at(uint32_t offset);

 private:
  std::string_view text_;
  const LineIndex& lines_;
  uint32_t line0_ = 0, offset_ = 0, column_ = 0;
  uint32_t line_end_ = 0;  // the next line's start: offsets before it are on line0_
  bool valid_ = false;
};

struct SourceFile {
  FileId id = 0;
  std::string name;  // as given by the user (path or a pseudo name like "<stdin>")
  std::string text;
  LineIndex lines;

  SourceFile(FileId id, std::string name, std::string text);
  std::string_view slice(Span s) const {
    return std::string_view(text).substr(s.begin, s.end - s.begin);
  }
};

// Owns the source files of a session; file ids index into it.
//
// Most files live as long as the manager (`add`). Two kinds are shorter-lived, so a
// long editing session does not keep every revision of every file:
//   * `replace` gives an existing id new text (the checking database keeps one id per
//     open file); whoever needs the old text holds it through `share`;
//   * `add_shared` registers a file that lives only as long as the returned pointer
//     (the database's per-definition chunks); its id stays reserved afterwards.
// `get` of a released id throws std::out_of_range instead of returning a dangling file.
class SourceManager {
 public:
  SourceManager();
  SourceManager(const SourceManager&) = delete;
  SourceManager& operator=(const SourceManager&) = delete;
  FileId add(std::string name, std::string text);
  std::shared_ptr<const SourceFile> add_shared(std::string name, std::string text);
  void replace(FileId id, std::string text);
  // Unique for the life of the process (unlike the address, which a later manager may
  // reuse): caches of data derived from this manager's files key on it.
  uint64_t serial() const { return serial_; }
  const SourceFile& get(FileId id) const;
  std::shared_ptr<const SourceFile> share(FileId id) const;
  size_t size() const { return files_.size(); }

 private:
  struct Slot {
    std::shared_ptr<const SourceFile> owned;
    std::weak_ptr<const SourceFile> borrowed;
  };
  std::vector<Slot> files_;
  uint64_t serial_;
};

// Reads a whole file. False with `error` set ("cannot read `PATH`: ...") when it cannot
// be read, or when it is 4 GiB or more (spans are 32-bit offsets); `reason`, when given,
// gets why in a few words for a label ("a directory", "no such file or directory").
bool read_text_file(const std::string& path, std::string* text, std::string* error, std::string* reason = nullptr);

}  // namespace relay
