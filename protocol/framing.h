// Content-Length message framing, as the Language Server Protocol and the Debug Adapter
// Protocol share it: every message is a header block (`Content-Length: N`, perhaps other
// `Name: value` lines, each ending in \r\n, then an empty line) followed by N bytes of body.
// `relay lsp` and `relay dap` use it on stdin/stdout.
//
// Reading is defensive: a header block without Content-Length, a length that is not a
// number or is absurdly large, a line that is not a header, or a stream that ends inside a
// message is reported as a framing error (one per bad stretch of input), never a crash.
// After an error the reader resynchronises at the next `Content-Length:` header, wherever
// it starts (garbage glued in front of a header, a stray line between messages, the body of
// a message whose header was refused), so one bad stretch never breaks later messages.
//
// Threads: read() and has_pending() belong to one reader thread; write() may be called from
// any thread (a mutex keeps messages from interleaving).
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

namespace relay::protocol {

// `Content-Length: <size>\r\n\r\n<body>`.
std::string frame(std::string_view body);

class FramedStream {
 public:
  // Messages larger than this are refused (and skipped) instead of allocated.
  static constexpr size_t kMaxMessageBytes = size_t{256} << 20;
  // A header block may be at most this long; longer runs without an empty line are garbage.
  static constexpr size_t kMaxHeaderBytes = size_t{64} << 10;

  // Does not own the descriptors.
  FramedStream(int in_fd, int out_fd) : in_(in_fd), out_(out_fd) {}

  enum class ReadStatus { Message, Eof, BadFraming };
  // Blocks for the next message body. On BadFraming `error` says what was wrong (for a
  // log or a protocol-level error reply) and the next call goes on at the next header.
  // Empty lines between messages are tolerated. Eof comes once the input has ended and
  // every complete message before it was returned.
  ReadStatus read(std::string& body, std::string& error);
  // Frames and writes one message. False when the peer has gone (the caller usually just
  // carries on: the read side will see end of input).
  bool write(std::string_view body);
  // Whether more input is available without blocking: buffered bytes (perhaps only part of
  // a message) or readable bytes in the pipe.
  bool has_pending();

 private:
  bool fill();                 // reads more bytes into buf_; false at end of input
  bool skip_to_header();       // drops input up to the next Content-Length header; false at EOF
  ReadStatus bad(std::string& error, std::string what, size_t resume);

  int in_, out_;
  std::string buf_;
  size_t pos_ = 0;                // the first byte of buf_ not yet consumed
  bool skipping_ = false;         // a refused body or a run of garbage is being dropped
  std::mutex write_mutex_;
};

}  // namespace relay::protocol
