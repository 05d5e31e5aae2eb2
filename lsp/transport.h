// LSP base protocol: messages framed by a `Content-Length: N` header block, on a pair of
// file descriptors (stdin/stdout for `relay lsp`).
//
// Reading is defensive: a header block without Content-Length, a length that is not a
// number or absurdly large, or a stream that ends inside a message is reported as a
// framing error, never a crash. Writing is serialised by a mutex so that a worker thread
// (diagnostics) and the main thread (responses) never interleave bytes.
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>

namespace relay::lsp {

class Transport {
 public:
  // Messages larger than this are refused (and skipped) instead of allocated.
  static constexpr size_t kMaxMessageBytes = size_t{256} << 20;

  Transport(int in_fd, int out_fd) : in_(in_fd), out_(out_fd) {}

  enum class ReadStatus { Message, Eof, BadFraming };
  // The next message body. On BadFraming `error` says what was wrong and the stream is
  // resynchronised at the next header block where possible.
  ReadStatus read(std::string& body, std::string& error);
  void write(const std::string& body);
  // Whether more input is available without blocking (buffered or in the pipe).
  bool has_pending();

 private:
  bool fill();  // reads more bytes into buf_; false at end of input
  int in_, out_;
  std::string buf_;
  size_t pos_ = 0;
  std::mutex write_mutex_;
};

}  // namespace relay::lsp
