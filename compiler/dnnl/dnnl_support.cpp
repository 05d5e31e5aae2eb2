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

bool only_reference_impl(const std::string& impl, std::string* why) {
  if (!is_reference_impl(impl)) return false;
  if (why) *why = "oneDNN has only its reference implementation (" + impl + ")";
  return true;
}

void Scratchpad::add_to(ExecArgs& args, ScratchMemory::Lease& lease) const {
  if (desc_.get_size() == 0) return;
  lease = memory_.take(desc_);
  args.add(DNNL_ARG_SCRATCHPAD, lease.memory);
}

UserMemory::Lease UserMemory::wrap(const void* data) const {
  void* handle = const_cast<void*>(data);  // oneDNN's handles are non-const; inputs are only read
  std::unique_lock<std::mutex> hold(mutex_, std::try_to_lock);
  if (!hold.owns_lock()) return {dnnl::memory(desc_, engine(), handle), {}};
  if (!kept_) kept_ = dnnl::memory(desc_, engine(), DNNL_MEMORY_NONE);
  kept_->set_data_handle(handle);
  return {*kept_, std::move(hold)};
}

void ExecArgs::add(int arg, const dnnl::memory& memory) {
  if (count_ == static_cast<int>(kMax)) throw std::logic_error("ExecArgs: too many arguments");
  held_[static_cast<size_t>(count_)] = memory;
  args_[static_cast<size_t>(count_++)] = {arg, memory.get()};
}

void ExecArgs::execute(const dnnl::primitive& primitive) const {
  dnnl::error::wrap_c_api(dnnl_primitive_execute(primitive.get(), stream().get(), count_, args_.data()),
                          "could not execute a primitive");
}

namespace {

void run_reorder(const dnnl::reorder& reorder, const dnnl::memory& from, const dnnl::memory& to) {
  ExecArgs args;
  args.add(DNNL_ARG_FROM, from);
  args.add(DNNL_ARG_TO, to);
  args.execute(reorder);
}

}  // namespace

dnnl::memory::desc plain(const dnnl::memory::dims& dims, dnnl::memory::format_tag tag,
                         dnnl::memory::data_type type) {
  return dnnl::memory::desc(dims, type, tag);
}

DataType relay_dtype(dnnl::memory::data_type type) {
  using dt = dnnl::memory::data_type;
  switch (type) {
    case dt::s32: return DataType::int_(32);
    case dt::s8: return DataType::int_(8);
    case dt::u8: return DataType::uint_(8);
    default: return DataType::float_(32);
  }
}

ScratchMemory::Lease ScratchMemory::take(const dnnl::memory::desc& desc) const {
  std::unique_lock<std::mutex> hold(mutex_, std::try_to_lock);
  if (!hold.owns_lock()) return {dnnl::memory(desc, engine()), {}};
  if (!kept_) kept_ = dnnl::memory(desc, engine());
  return {*kept_, std::move(hold)};
}

OperandLayout::OperandLayout(const dnnl::memory::desc& user, const dnnl::memory::desc& chosen, Direction direction)
    : user_(user), chosen_(chosen), plain_(user), preload_memory_(user) {
  user_memory_.emplace(user);
  if (user == chosen) return;
  if (direction == Direction::Input)
    reorder_.emplace(dnnl::reorder::primitive_desc(engine(), user, engine(), chosen));
  else
    reorder_.emplace(dnnl::reorder::primitive_desc(engine(), chosen, engine(), user));
  if (direction == Direction::PreloadedOutput)
    preload_.emplace(dnnl::reorder::primitive_desc(engine(), user, engine(), chosen));
}

dnnl::memory OperandLayout::into(const void* data, Leases& leases) const {
  leases.user = user_memory_->wrap(data);
  if (!reorder_) return leases.user.memory;
  leases.scratch = scratch_.take(chosen_);
  run_reorder(*reorder_, leases.user.memory, leases.scratch.memory);
  return leases.scratch.memory;
}

dnnl::memory OperandLayout::out(void* data, Leases& leases) const {
  if (!reorder_) {
    leases.user = user_memory_->wrap(data);
    return leases.user.memory;
  }
  leases.scratch = scratch_.take(chosen_);
  return leases.scratch.memory;
}

void OperandLayout::finish(const dnnl::memory& produced, void* data, Leases& leases) const {
  if (!reorder_) return;
  leases.user = user_memory_->wrap(data);
  run_reorder(*reorder_, produced, leases.user.memory);
}

void OperandLayout::preload(const void* data, bool data_in_chosen_layout, const dnnl::memory& target,
                            UserMemory::Lease& lease) const {
  if (!preload_ || data_in_chosen_layout) {
    // Already the destination's layout: a copy (none when it is the destination itself).
    if (target.get_data_handle() != data) std::memcpy(target.get_data_handle(), data, chosen_.get_size());
    return;
  }
  lease = preload_memory_.wrap(data);
  run_reorder(*preload_, lease.memory, target);
}

ActivationLayout OperandLayout::chosen_activation_layout() const {
  using tag = dnnl::memory::format_tag;
  const dnnl::memory::dims dims = plain_.dims();
  if (dims.size() != 4) return ActivationLayout::plain();
  const auto type = plain_.data_type();
  if (plain_ != dnnl::memory::desc(dims, type, tag::abcd)) return ActivationLayout::plain();
  if (chosen_ == dnnl::memory::desc(dims, type, tag::acdb)) return ActivationLayout::channels_last();
  for (const auto& [blocked, block] : {std::pair{tag::aBcd16b, 16}, std::pair{tag::aBcd8b, 8}})
    if (dims[1] % block == 0 && chosen_ == dnnl::memory::desc(dims, type, blocked)) return ActivationLayout::blocked(block);
  return ActivationLayout::plain();
}

void OperandLayout::adopt_chosen_layout() {
  user_ = chosen_;
  user_memory_.emplace(chosen_);
  reorder_.reset();
}

}  // namespace relay::compiler::dnnl_impl
