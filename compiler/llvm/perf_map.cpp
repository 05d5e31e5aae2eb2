// The perf map plugin (perf_map.h). Entries are written after fixups, when every symbol's
// final address and size are known, and flushed at once so a profiler attached mid-run
// sees them.
#include "compiler/llvm/perf_map.h"

#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <mutex>

#include <llvm/ExecutionEngine/JITLink/JITLink.h>

namespace relay::compiler {
namespace {

class PerfMapPlugin final : public llvm::orc::ObjectLinkingLayer::Plugin {
 public:
  explicit PerfMapPlugin(std::string path) : path_(std::move(path)) {}
  ~PerfMapPlugin() override {
    if (file_) std::fclose(file_);
  }

  void modifyPassConfig(llvm::orc::MaterializationResponsibility&, llvm::jitlink::LinkGraph&,
                        llvm::jitlink::PassConfiguration& config) override {
    config.PostFixupPasses.push_back([this](llvm::jitlink::LinkGraph& g) {
      record(g);
      return llvm::Error::success();
    });
  }
  llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility&) override { return llvm::Error::success(); }
  llvm::Error notifyRemovingResources(llvm::orc::JITDylib&, llvm::orc::ResourceKey) override {
    return llvm::Error::success();
  }
  void notifyTransferringResources(llvm::orc::JITDylib&, llvm::orc::ResourceKey, llvm::orc::ResourceKey) override {}

 private:
  void record(llvm::jitlink::LinkGraph& g) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!file_) file_ = std::fopen(path_.c_str(), "a");
    if (!file_) return;  // profiling support is best effort
    for (llvm::jitlink::Symbol* s : g.defined_symbols()) {
      if (!s->isCallable() || !s->hasName() || s->getSize() == 0) continue;
      const std::string name = s->getName().str();
      std::fprintf(file_, "%" PRIx64 " %" PRIx64 " %s\n", static_cast<uint64_t>(s->getAddress().getValue()),
                   static_cast<uint64_t>(s->getSize()), name.c_str());
    }
    std::fflush(file_);
  }

  std::string path_;
  std::mutex mutex_;
  std::FILE* file_ = nullptr;
};

}  // namespace

std::unique_ptr<llvm::orc::ObjectLinkingLayer::Plugin> make_perf_map_plugin(std::string path) {
  return std::make_unique<PerfMapPlugin>(std::move(path));
}

std::string default_perf_map_path() { return "/tmp/perf-" + std::to_string(::getpid()) + ".map"; }

}  // namespace relay::compiler
