// Reference-counted heap objects of the interpreter: tensors, tuples, closures,
// constructor values and references all derive from Object and are held through
// Ref<T>, an intrusive pointer.
//
// The count is deliberately not atomic: an evaluation runs on one thread, and the hot
// path (a scalar add is a few count updates) would pay for a locked instruction on every
// copy. Values cross threads only once evaluation has finished with them (a front end
// displaying a result), never while two threads copy them at the same time.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace relay::rt {

enum class ObjectKind : uint8_t { Tensor, Tuple, Closure, Ctor, Ref };

class Object {
 public:
  explicit Object(ObjectKind kind) : kind_(kind) {}
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  virtual ~Object() = default;
  ObjectKind kind() const { return kind_; }

 private:
  template <class T> friend class Ref;
  mutable uint32_t refs_ = 0;
  ObjectKind kind_;
};

// Deletes `o` without recursing on the C++ stack: a 1,000,000-element list is a chain of
// 1,000,000 constructor values, and freeing it recursively would overflow the stack.
// Objects whose last reference drops while another is being deleted are queued and
// deleted by the outermost call.
inline void destroy(Object* o) {
  thread_local std::vector<Object*>* pending = nullptr;
  if (pending) {
    pending->push_back(o);
    return;
  }
  std::vector<Object*> queue{o};
  pending = &queue;
  while (!queue.empty()) {
    Object* next = queue.back();
    queue.pop_back();
    delete next;  // may queue its fields
  }
  pending = nullptr;
}

template <class T>
class Ref {
 public:
  Ref() = default;
  Ref(std::nullptr_t) {}
  explicit Ref(T* p) : p_(p) { retain(); }
  Ref(const Ref& o) : p_(o.p_) { retain(); }
  Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <class U> Ref(const Ref<U>& o) : p_(o.get()) { retain(); }
  ~Ref() { release(); }
  Ref& operator=(Ref o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  uint32_t use_count() const { return p_ ? p_->refs_ : 0; }
  bool operator==(const Ref& o) const { return p_ == o.p_; }

 private:
  void retain() {
    if (p_) ++p_->refs_;
  }
  void release() {
    if (p_ && --p_->refs_ == 0) destroy(p_);
  }
  T* p_ = nullptr;
};

template <class T, class... A>
Ref<T> make_ref(A&&... args) {
  return Ref<T>(new T(std::forward<A>(args)...));
}

}  // namespace relay::rt
