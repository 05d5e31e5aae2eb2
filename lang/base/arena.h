// A bump allocator for IR nodes.
//
// Nodes are trivially destructible and live exactly as long as their module, so a
// module frees its whole tree by dropping its arena. Allocation is a pointer bump,
// which is what keeps parsing fast and the IR small (see bench/frontend).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace relay {

class Arena {
 public:
  Arena() = default;
  // `first_chunk`: the size of the first block; later blocks double. Small arenas (the
  // types of one definition) start small so that thousands of them stay cheap.
  explicit Arena(size_t first_chunk) : first_chunk_(first_chunk) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  Arena(Arena&&) = default;
  Arena& operator=(Arena&&) = default;

  void* allocate(size_t size, size_t align) {
    uintptr_t p = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~(uintptr_t)(align - 1);
    if (cur_ == nullptr || p + size > reinterpret_cast<uintptr_t>(end_)) {
      grow(size + align);
      p = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~(uintptr_t)(align - 1);
    }
    cur_ = reinterpret_cast<char*>(p + size);
    used_ += size;
    return reinterpret_cast<void*>(p);
  }

  template <class T, class... Args>
  T* make(Args&&... args) {
    static_assert(std::is_trivially_destructible_v<T>, "arena nodes are never destroyed");
    return new (allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...);
  }

  template <class T>
  std::span<T> copy(const T* data, size_t n) {
    static_assert(std::is_trivially_destructible_v<T>);
    if (n == 0) return {};
    T* out = static_cast<T*>(allocate(sizeof(T) * n, alignof(T)));
    for (size_t i = 0; i < n; ++i) new (out + i) T(data[i]);
    return {out, n};
  }
  template <class T>
  std::span<T> copy(const std::vector<T>& v) { return copy(v.data(), v.size()); }

  std::string_view copy_string(std::string_view s) {
    if (s.empty()) return {};
    char* out = static_cast<char*>(allocate(s.size(), 1));
    std::memcpy(out, s.data(), s.size());
    return {out, s.size()};
  }

  // Bytes handed out to callers (excluding chunk slack).
  size_t bytes_used() const { return used_; }
  // Bytes reserved from the system.
  size_t bytes_reserved() const { return reserved_; }

 private:
  void grow(size_t at_least) {
    size_t size = chunks_.empty() ? first_chunk_ : std::min(last_size_ * 2, kMaxChunk);
    if (size < at_least) size = at_least;
    chunks_.emplace_back(new char[size]);
    cur_ = chunks_.back().get();
    end_ = cur_ + size;
    last_size_ = size;
    reserved_ += size;
  }

  static constexpr size_t kDefaultFirstChunk = 4 * 1024;
  static constexpr size_t kMaxChunk = 4 * 1024 * 1024;
  size_t first_chunk_ = kDefaultFirstChunk;
  std::vector<std::unique_ptr<char[]>> chunks_;
  char* cur_ = nullptr;
  char* end_ = nullptr;
  size_t last_size_ = 0;
  size_t used_ = 0;
  size_t reserved_ = 0;
};

}  // namespace relay
