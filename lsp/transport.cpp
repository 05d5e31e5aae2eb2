#include "lsp/transport.h"

#include <poll.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string_view>

namespace relay::lsp {

bool Transport::fill() {
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

Transport::ReadStatus Transport::read(std::string& body, std::string& error) {
  // Header block: lines ending in \r\n (a bare \n is tolerated), then an empty line.
  size_t header_end;
  for (;;) {
    header_end = buf_.find("\r\n\r\n", pos_);
    size_t alt = buf_.find("\n\n", pos_);
    if (alt != std::string::npos && (header_end == std::string::npos || alt < header_end)) {
      header_end = alt;
      break;
    }
    if (header_end != std::string::npos) break;
    if (buf_.size() - pos_ > 64 * 1024) {  // no header block in sight: drop it
      error = "a header block longer than 64 KiB";
      pos_ = buf_.size();
      return ReadStatus::BadFraming;
    }
    if (!fill()) {
      if (pos_ < buf_.size() && buf_.find_first_not_of(" \r\n\t", pos_) != std::string::npos) {
        error = "the input ended inside a header block";
        pos_ = buf_.size();
        return ReadStatus::BadFraming;
      }
      return ReadStatus::Eof;
    }
  }
  std::string_view headers(buf_.data() + pos_, header_end - pos_);
  const size_t sep = buf_.compare(header_end, 4, "\r\n\r\n") == 0 ? 4 : 2;
  pos_ = header_end + sep;
  std::optional<size_t> length;
  size_t at = 0;
  while (at < headers.size()) {
    size_t eol = headers.find('\n', at);
    std::string_view line = headers.substr(at, eol == std::string_view::npos ? std::string_view::npos : eol - at);
    at = eol == std::string_view::npos ? headers.size() : eol + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string name(line.substr(0, colon));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name != "content-length") continue;
    std::string_view v = line.substr(colon + 1);
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    size_t n = 0;
    bool digits = !v.empty() && v.size() <= 12;
    for (char c : v) {
      if (c < '0' || c > '9') digits = false;
      else n = n * 10 + static_cast<size_t>(c - '0');
    }
    if (!digits) {
      error = "Content-Length is not a number";
      return ReadStatus::BadFraming;
    }
    length = n;
  }
  if (!length) {
    error = "a header block without Content-Length";
    return ReadStatus::BadFraming;
  }
  if (*length > kMaxMessageBytes) {
    error = "a message of " + std::to_string(*length) + " bytes (the limit is 256 MiB)";
    // Skip it as it streams past, without keeping it.
    size_t left = *length;
    while (left > 0) {
      size_t have = buf_.size() - pos_;
      size_t take = have < left ? have : left;
      pos_ += take;
      left -= take;
      if (left > 0 && !fill()) break;
    }
    return ReadStatus::BadFraming;
  }
  while (buf_.size() - pos_ < *length)
    if (!fill()) {
      error = "the input ended inside a message";
      pos_ = buf_.size();
      return ReadStatus::BadFraming;
    }
  body.assign(buf_, pos_, *length);
  pos_ += *length;
  return ReadStatus::Message;
}

bool Transport::has_pending() {
  if (buf_.find_first_not_of(" \r\n\t", pos_) != std::string::npos) return true;
  pollfd p{in_, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP));
}

void Transport::write(const std::string& body) {
  std::lock_guard<std::mutex> lock(write_mutex_);
  std::string msg = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  size_t off = 0;
  while (off < msg.size()) {
    ssize_t n = ::write(out_, msg.data() + off, msg.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the client is gone; the read side will see EOF
    off += static_cast<size_t>(n);
  }
}

}  // namespace relay::lsp
