#include "compiler/dnnl/dnnl_support.h"

#include <omp.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define RELAY_HAVE_MXCSR 1
#endif

#include <cstring>

namespace relay::compiler::dnnl_impl {

dnnl::engine& engine() {
  static dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
  return cpu;
}

dnnl::stream& stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

void use_threads(unsigned threads) {
  // An ICV of the calling thread: cheap, and it leaves other threads' OpenMP use alone.
  if (static_cast<unsigned>(omp_get_max_threads()) != threads) omp_set_num_threads(static_cast<int>(threads));
}

#ifdef RELAY_HAVE_MXCSR
namespace {
constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;
}

FlushDenormals::FlushDenormals(unsigned threads) : saved_(_mm_getcsr()) {
  _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero);
  // This thread's OpenMP team: set once per team size (a new size may bring new workers).
  thread_local unsigned flushed_team = 1;
  if (threads > 1 && flushed_team != threads) {
#pragma omp parallel num_threads(threads)
    _mm_setcsr(_mm_getcsr() | kFlushToZero | kDenormalsAreZero);
    flushed_team = threads;
  }
}

FlushDenormals::~FlushDenormals() { _mm_setcsr(saved_); }
#else
FlushDenormals::FlushDenormals(unsigned) {}
FlushDenormals::~FlushDenormals() {}
#endif

bool is_reference_impl(const std::string& impl) { return impl.rfind("ref", 0) == 0; }

dnnl::primitive_attr caller_scratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

void Scratchpad::add_to(std::unordered_map<int, dnnl::memory>& args, ScratchMemory::Lease& lease) const {
  if (desc_.get_size() == 0) return;
  lease = memory_.take(desc_);
  args.emplace(DNNL_ARG_SCRATCHPAD, lease.memory);
}

dnnl::memory::desc plain(const dnnl::memory::dims& dims, dnnl::memory::format_tag tag) {
  return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, tag);
}

ScratchMemory::Lease ScratchMemory::take(const dnnl::memory::desc& desc) const {
  std::unique_lock<std::mutex> hold(mutex_, std::try_to_lock);
  if (!hold.owns_lock()) return {dnnl::memory(desc, engine()), {}};
  if (!kept_) kept_ = dnnl::memory(desc, engine());
  return {*kept_, std::move(hold)};
}

OperandLayout::OperandLayout(const dnnl::memory::desc& user, const dnnl::memory::desc& chosen, Direction direction)
    : user_(user), chosen_(chosen) {
  if (user == chosen) return;
  if (direction == Direction::Input)
    reorder_.emplace(dnnl::reorder::primitive_desc(engine(), user, engine(), chosen));
  else
    reorder_.emplace(dnnl::reorder::primitive_desc(engine(), chosen, engine(), user));
  if (direction == Direction::PreloadedOutput)
    preload_.emplace(dnnl::reorder::primitive_desc(engine(), user, engine(), chosen));
}

dnnl::memory OperandLayout::into(void* data, ScratchMemory::Lease& lease) const {
  dnnl::memory user(user_, engine(), data);
  if (!reorder_) return user;
  lease = scratch_.take(chosen_);
  reorder_->execute(stream(), user, lease.memory);
  return lease.memory;
}

dnnl::memory OperandLayout::out(void* data, ScratchMemory::Lease& lease) const {
  if (!reorder_) return dnnl::memory(user_, engine(), data);
  lease = scratch_.take(chosen_);
  return lease.memory;
}

void OperandLayout::finish(const dnnl::memory& produced, void* data) const {
  if (!reorder_) return;
  dnnl::memory user(user_, engine(), data), from = produced;  // execute takes non-const handles
  reorder_->execute(stream(), from, user);
}

void OperandLayout::preload(const void* data, dnnl::memory& target) const {
  if (!preload_) {
    if (target.get_data_handle() != data) std::memcpy(target.get_data_handle(), data, user_.get_size());
    return;
  }
  dnnl::memory user(user_, engine(), const_cast<void*>(data));
  preload_->execute(stream(), user, target);
}

}  // namespace relay::compiler::dnnl_impl
