#include "protocol/framing.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

namespace relay::protocol {

namespace {

constexpr std::string_view kLengthHeader = "content-length:";

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// The first `Content-Length:` (any case) starting in [from, to), or npos.
size_t find_length_header(const std::string& buf, size_t from, size_t to) {
  if (to > buf.size()) to = buf.size();
  for (size_t i = from; i < to && buf.size() - i >= kLengthHeader.size(); ++i) {
    size_t k = 0;
    while (k < kLengthHeader.size() && lower(buf[i + k]) == kLengthHeader[k]) ++k;
    if (k == kLengthHeader.size()) return i;
  }
  return std::string::npos;
}

// RFC 9110 token characters: what a header name may be made of.
bool is_token_char(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// A short printable rendering of untrusted input for an error message.
std::string excerpt(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (s.size() > 40) out += "...";
  return out;
}

}  // namespace

std::string frame(std::string_view body) {
  std::string msg = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  msg.append(body);
  return msg;
}

bool FramedStream::fill() {
  // Compact now and then so the buffer does not grow with the whole session.
  if (pos_ > 0 && pos_ == buf_.size()) buf_.clear(), pos_ = 0;
  if (pos_ > (size_t{1} << 20)) buf_.erase(0, pos_), pos_ = 0;
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(in_, chunk, sizeof chunk);
    if (n > 0) {
      buf_.append(chunk, static_cast<size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    return false;
  }
}

bool FramedStream::skip_to_header() {
  for (;;) {
    size_t at = find_length_header(buf_, pos_, buf_.size());
    if (at != std::string::npos) {
      pos_ = at;
      skipping_ = false;
      return true;
    }
    // Keep only a tail that may be the start of a header split across reads.
    if (buf_.size() - pos_ >= kLengthHeader.size()) pos_ = buf_.size() - (kLengthHeader.size() - 1);
    if (!fill()) {
      pos_ = buf_.size();
      skipping_ = false;
      return false;
    }
  }
}

FramedStream::ReadStatus FramedStream::bad(std::string& error, std::string what, size_t resume) {
  error = std::move(what);
  pos_ = resume;
  return ReadStatus::BadFraming;
}

FramedStream::ReadStatus FramedStream::read(std::string& body, std::string& error) {
  if (skipping_ && !skip_to_header()) return ReadStatus::Eof;
  // Whitespace between messages (a client that ends each body with a newline) is not an
  // error; anything else must be a header block.
  for (;;) {
    while (pos_ < buf_.size() && is_blank(buf_[pos_])) ++pos_;
    if (pos_ < buf_.size()) break;
    if (!fill()) return ReadStatus::Eof;
  }

  // The header block ends at an empty line: \r\n\r\n, or \n\n from a sloppy client.
  size_t end, sep;
  for (;;) {
    end = buf_.find("\r\n\r\n", pos_);
    sep = 4;
    size_t alt = buf_.find("\n\n", pos_);
    if (alt != std::string::npos && alt < end) end = alt, sep = 2;
    if (end != std::string::npos) break;
    if (buf_.size() - pos_ > kMaxHeaderBytes) {
      // A long run of garbage: report it once and drop it up to the next header.
      size_t next = find_length_header(buf_, pos_ + 1, buf_.size());
      if (next == std::string::npos) skipping_ = true;
      return bad(error, "no header block in " + std::to_string(buf_.size() - pos_) + " bytes (\"" +
                            excerpt(std::string_view(buf_).substr(pos_)) + "\")",
                 next == std::string::npos ? buf_.size() : next);
    }
    if (!fill())
      return bad(error, "the input ended inside a header block (\"" + excerpt(std::string_view(buf_).substr(pos_)) + "\")",
                 buf_.size());
  }

  // Parse the block; the first problem found is the one reported.
  const size_t start = pos_;
  std::string_view headers(buf_.data() + start, end - start);
  std::optional<size_t> length;
  std::string problem;
  for (size_t at = 0; at < headers.size() && problem.empty();) {
    size_t eol = headers.find('\n', at);
    if (eol == std::string_view::npos) eol = headers.size();
    std::string_view line = headers.substr(at, eol - at);
    at = eol + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t colon = line.find(':');
    bool is_header = colon != std::string_view::npos && colon > 0;
    for (size_t i = 0; is_header && i < colon; ++i) is_header = is_token_char(line[i]);
    if (!is_header) {
      problem = "a line that is not a header (\"" + excerpt(line) + "\")";
      break;
    }
    std::string name(line.substr(0, colon));
    for (char& c : name) c = lower(c);
    if (name != "content-length") continue;  // Content-Type and the like carry nothing we need
    std::string_view v = line.substr(colon + 1);
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
    bool digits = !v.empty() && v.size() <= 12;  // 12 digits cannot overflow size_t
    size_t n = 0;
    for (char c : v) {
      if (c < '0' || c > '9') digits = false;
      else n = n * 10 + static_cast<size_t>(c - '0');
    }
    if (!digits) problem = "Content-Length is not a number (\"" + excerpt(v) + "\")";
    else length = n;
  }
  if (problem.empty() && !length) problem = "a header block without Content-Length";
  if (!problem.empty()) {
    // A Content-Length header later in the block (after a stray line, or glued to the end of
    // an orphaned body) starts the next message; otherwise go on after the block.
    size_t next = find_length_header(buf_, start + 1, end);
    return bad(error, problem, next != std::string::npos ? next : end + sep);
  }

  pos_ = end + sep;
  if (*length > kMaxMessageBytes) {
    // Not allocated: dropped as it streams past, up to the next header (found by content,
    // so a bogus length does not swallow the messages after it).
    skipping_ = true;
    error = "a message of " + std::to_string(*length) + " bytes (the limit is " +
            std::to_string(kMaxMessageBytes >> 20) + " MiB)";
    return ReadStatus::BadFraming;
  }
  while (buf_.size() - pos_ < *length)
    if (!fill())
      return bad(error,
                 "the input ended inside a message (" + std::to_string(buf_.size() - pos_) + " of " +
                     std::to_string(*length) + " bytes)",
                 buf_.size());
  body.assign(buf_, pos_, *length);
  pos_ += *length;
  return ReadStatus::Message;
}

bool FramedStream::has_pending() {
  for (size_t i = pos_; i < buf_.size(); ++i)
    if (!is_blank(buf_[i])) return true;
  pollfd p{in_, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP));
}

bool FramedStream::write(std::string_view body) {
  const std::string msg = frame(body);
  std::lock_guard<std::mutex> lock(write_mutex_);
  size_t off = 0;
  while (off < msg.size()) {
    ssize_t n = ::write(out_, msg.data() + off, msg.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace relay::protocol
