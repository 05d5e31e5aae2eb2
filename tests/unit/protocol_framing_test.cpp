// Content-Length framing (protocol/framing.h) over real pipes: messages in sequence,
// garbage between and inside them, missing or hostile lengths, a stream that ends early,
// and concurrent writers. Bad input must cost one framing error and never a later message.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include "protocol/framing.h"

using relay::protocol::frame;
using relay::protocol::FramedStream;
using Status = FramedStream::ReadStatus;

namespace {

// A pipe whose write end is fed `bytes` by a thread (pipes hold only 64 KiB, so a plain
// write would block on large inputs) and then closed, unless `keep_open`.
class FedPipe {
 public:
  explicit FedPipe(std::string bytes, bool keep_open = false) {
    REQUIRE(::pipe(fds_) == 0);
    writer_ = std::thread([this, fd = fds_[1], bytes = std::move(bytes), keep_open] {
      size_t off = 0;
      while (off < bytes.size()) {
        ssize_t n = ::write(fd, bytes.data() + off, bytes.size() - off);
        if (n <= 0) break;
        off += static_cast<size_t>(n);
      }
      if (!keep_open) close_writer();
    });
  }
  ~FedPipe() {
    writer_.join();
    close_writer();
    ::close(fds_[0]);
  }
  int read_fd() const { return fds_[0]; }
  void close_writer() {
    if (fds_[1] >= 0) ::close(fds_[1]), fds_[1] = -1;
  }

 private:
  int fds_[2] = {-1, -1};
  std::thread writer_;
};

struct Result {
  std::vector<std::string> messages;
  std::vector<std::string> errors;
};

// Reads until end of input.
Result read_all(const std::string& input) {
  FedPipe pipe(input);
  FramedStream stream(pipe.read_fd(), -1);
  Result r;
  for (int guard = 0; guard < 100000; ++guard) {
    std::string body, error;
    Status s = stream.read(body, error);
    if (s == Status::Eof) return r;
    if (s == Status::Message) r.messages.push_back(body);
    else r.errors.push_back(error);
  }
  FAIL("the reader never reached the end of input");
  return r;
}

}  // namespace

TEST_CASE("framing: several messages in a row", "[protocol]") {
  std::string input = frame(R"({"seq":1})") + frame("") + frame(R"({"seq":3,"text":"a\r\n\r\nb"})") +
                      "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-LENGTH:  5 \r\n\r\nhello" +
                      "Content-Length: 2\n\nhi" +  // a sloppy client's bare newlines
                      "\r\n" + frame("after a blank line");
  Result r = read_all(input);
  CHECK(r.errors.empty());
  REQUIRE(r.messages.size() == 6);
  CHECK(r.messages[0] == R"({"seq":1})");
  CHECK(r.messages[1] == "");
  CHECK(r.messages[2] == R"({"seq":3,"text":"a\r\n\r\nb"})");
  CHECK(r.messages[3] == "hello");
  CHECK(r.messages[4] == "hi");
  CHECK(r.messages[5] == "after a blank line");
}

TEST_CASE("framing: a message split into single bytes", "[protocol]") {
  // The writer thread writes the whole string at once, but a reader may see any split;
  // force the worst one with a pipe fed byte by byte.
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const std::string input = frame("split") + frame("across reads");
  std::thread writer([&] {  // no Catch2 assertions off the main thread
    for (char c : input)
      if (::write(fds[1], &c, 1) != 1) break;
    ::close(fds[1]);
  });
  FramedStream stream(fds[0], -1);
  std::string body, error;
  CHECK(stream.read(body, error) == Status::Message);
  CHECK(body == "split");
  CHECK(stream.read(body, error) == Status::Message);
  CHECK(body == "across reads");
  CHECK(stream.read(body, error) == Status::Eof);
  writer.join();
  ::close(fds[0]);
}

TEST_CASE("framing: garbage between messages costs one error and no message", "[protocol]") {
  SECTION("a stray line before a header") {
    Result r = read_all(frame("one") + "this is not a header\r\n" + frame("two") + frame("three"));
    CHECK(r.messages == std::vector<std::string>{"one", "two", "three"});
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].find("not a header") != std::string::npos);
  }
  SECTION("a stray line that ends a block of its own") {
    Result r = read_all(frame("one") + "garbage\r\n\r\n" + frame("two"));
    CHECK(r.messages == std::vector<std::string>{"one", "two"});
    CHECK(r.errors.size() == 1);
  }
  SECTION("garbage glued to the front of a header") {
    Result r = read_all(frame("one") + "xyz}{" + frame("two") + "@@" + frame("three"));
    CHECK(r.messages == std::vector<std::string>{"one", "two", "three"});
    CHECK(r.errors.size() == 2);
  }
  SECTION("a run of garbage longer than a header block may be") {
    Result r = read_all(frame("one") + std::string(200000, 'x') + frame("two"));
    CHECK(r.messages == std::vector<std::string>{"one", "two"});
    CHECK(r.errors.size() == 1);
  }
  SECTION("a header block that never ends") {
    Result r = read_all(frame("one") + "X-Endless: " + std::string(100000, 'y'));
    CHECK(r.messages == std::vector<std::string>{"one"});
    CHECK(r.errors.size() == 1);
  }
}

TEST_CASE("framing: a header block without Content-Length", "[protocol]") {
  Result r = read_all("X-Nothing: 1\r\n\r\n" + frame("next"));
  CHECK(r.messages == std::vector<std::string>{"next"});
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0] == "a header block without Content-Length");
}

TEST_CASE("framing: a Content-Length that is not a number", "[protocol]") {
  SECTION("without a body") {
    Result r = read_all("Content-Length: 12x\r\n\r\n" + frame("next"));
    CHECK(r.messages == std::vector<std::string>{"next"});
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].find("not a number") != std::string::npos);
  }
  SECTION("with the body the client meant to send") {
    // The orphaned body runs into the next header; the reader must find that header.
    Result r = read_all("Content-Length: -4\r\n\r\n{\"seq\":1}" + frame("next") + frame("last"));
    CHECK(r.messages == std::vector<std::string>{"next", "last"});
    CHECK(r.errors.size() == 2);
  }
  SECTION("too many digits") {
    Result r = read_all("Content-Length: 1234567890123456789012\r\n\r\n" + frame("next"));
    CHECK(r.messages == std::vector<std::string>{"next"});
    CHECK(r.errors.size() == 1);
  }
}

TEST_CASE("framing: a huge Content-Length is refused, not allocated", "[protocol]") {
  SECTION("a bogus length followed by real messages") {
    Result r = read_all("Content-Length: 999999999999\r\n\r\n" + frame("next") + frame("last"));
    CHECK(r.messages == std::vector<std::string>{"next", "last"});
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].find("the limit is 256 MiB") != std::string::npos);
  }
  SECTION("a refused body is dropped as it streams past") {
    std::string input = "Content-Length: " + std::to_string(FramedStream::kMaxMessageBytes + 1) + "\r\n\r\n" +
                        std::string(3 << 20, 'z') + frame("next");
    Result r = read_all(input);
    CHECK(r.messages == std::vector<std::string>{"next"});
    CHECK(r.errors.size() == 1);
  }
  SECTION("end of input while dropping") {
    Result r = read_all("Content-Length: 999999999999\r\n\r\nzzzz");
    CHECK(r.messages.empty());
    CHECK(r.errors.size() == 1);
  }
}

TEST_CASE("framing: end of input inside a message", "[protocol]") {
  SECTION("inside the body") {
    Result r = read_all(frame("whole") + "Content-Length: 100\r\n\r\n{\"partial\":");
    CHECK(r.messages == std::vector<std::string>{"whole"});
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0] == "the input ended inside a message (11 of 100 bytes)");
  }
  SECTION("inside the header block") {
    Result r = read_all(frame("whole") + "Content-Len");
    CHECK(r.messages == std::vector<std::string>{"whole"});
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].find("inside a header block") != std::string::npos);
  }
  SECTION("trailing blank lines are not an error") {
    Result r = read_all(frame("whole") + "\r\n\r\n");
    CHECK(r.messages == std::vector<std::string>{"whole"});
    CHECK(r.errors.empty());
  }
}

TEST_CASE("framing: a large message", "[protocol]") {
  std::string big(5 << 20, 'b');
  big.front() = '{';
  big.back() = '}';
  Result r = read_all(frame(big) + frame("small"));
  REQUIRE(r.messages.size() == 2);
  CHECK(r.messages[0] == big);
  CHECK(r.messages[1] == "small");
}

TEST_CASE("framing: has_pending", "[protocol]") {
  FedPipe pipe(frame("a") + frame("b"), /*keep_open=*/true);
  FramedStream stream(pipe.read_fd(), -1);
  std::string body, error;
  REQUIRE(stream.read(body, error) == Status::Message);  // both frames may now be buffered
  CHECK(stream.has_pending());
  REQUIRE(stream.read(body, error) == Status::Message);
  CHECK(body == "b");
  CHECK_FALSE(stream.has_pending());  // the pipe is open and empty
  pipe.close_writer();
  CHECK(stream.has_pending());  // end of input is something to read
  CHECK(stream.read(body, error) == Status::Eof);
}

TEST_CASE("framing: concurrent writers never interleave messages", "[protocol]") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  constexpr int kThreads = 4, kEach = 300;
  Result r;
  std::atomic<int> failed_writes{0};
  // The reader runs while the writers write: the pipe holds far less than they send.
  std::thread reader([&] {
    FramedStream in(fds[0], -1);
    std::string body, error;
    for (;;) {
      Status s = in.read(body, error);
      if (s == Status::Eof) break;
      if (s == Status::Message) r.messages.push_back(body);
      else r.errors.push_back(error);
    }
  });
  {
    FramedStream out(-1, fds[1]);
    std::vector<std::thread> writers;
    for (int t = 0; t < kThreads; ++t)
      writers.emplace_back([&out, &failed_writes, t] {
        for (int i = 0; i < kEach; ++i)
          if (!out.write(std::string(1000 + i, static_cast<char>('a' + t)))) ++failed_writes;
      });
    for (auto& w : writers) w.join();
  }
  ::close(fds[1]);
  reader.join();
  ::close(fds[0]);
  CHECK(failed_writes == 0);
  CHECK(r.errors.empty());
  REQUIRE(r.messages.size() == size_t{kThreads} * kEach);
  for (const std::string& m : r.messages) {
    REQUIRE(!m.empty());
    CHECK(m.find_first_not_of(m[0]) == std::string::npos);  // one writer's bytes only
  }
}

TEST_CASE("framing: writing to a closed peer reports failure", "[protocol]") {
  auto old = std::signal(SIGPIPE, SIG_IGN);
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ::close(fds[0]);
  FramedStream out(-1, fds[1]);
  CHECK_FALSE(out.write("{}"));
  ::close(fds[1]);
  std::signal(SIGPIPE, old);
}

TEST_CASE("framing: frame() writes the header LSP and DAP expect", "[protocol]") {
  CHECK(frame("{}") == "Content-Length: 2\r\n\r\n{}");
  CHECK(frame("") == "Content-Length: 0\r\n\r\n");
}
