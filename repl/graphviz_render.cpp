#include "repl/graphviz_render.h"

#include <graphviz/gvc.h>

#include <initializer_list>
#include <mutex>

namespace relay::repl {

namespace {

// Graphviz reports through agerr, which writes to stderr unless a handler is installed.
// The handler is a plain function pointer, so the messages of the render in progress
// collect here (guarded by the render mutex).
std::string* g_messages = nullptr;

int collect_message(char* text) {
  if (g_messages && text) *g_messages += text;
  return 0;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// One Graphviz context for the process: creating one loads the plugin configuration,
// which costs more than laying out a small graph. Graphviz's parser and error state are
// global, so every use goes through `mutex`.
class Renderer {
 public:
  ~Renderer() {
    if (context_) gvFreeContext(context_);
  }

  // A Graphviz output format and where its bytes go.
  struct Target {
    const char* format;
    std::string* out;
  };

  bool render(const std::string& dot, std::initializer_list<Target> targets, std::string* error) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string messages;
    g_messages = &messages;
    const agusererrf previous_handler = agseterrf(collect_message);
    const bool ok = render_locked(dot, targets, &messages);
    agseterrf(previous_handler);
    g_messages = nullptr;
    if (!ok && error) *error = trimmed(messages);
    return ok;
  }

 private:
  bool render_locked(const std::string& dot, std::initializer_list<Target> targets, std::string* messages) {
    if (!context_) context_ = gvContext();
    if (!context_) return fail(messages, "could not start Graphviz");
    agreseterrors();
    Agraph_t* graph = agmemread(dot.c_str());
    if (!graph) return fail(messages, "the text is not a DOT graph");
    bool ok = false;
    if (gvLayout(context_, graph, "dot") != 0) {
      fail(messages, "Graphviz could not lay out the graph");
    } else {
      ok = true;
      for (const Target& t : targets) {
        char* data = nullptr;
        unsigned int length = 0;
        if (gvRenderData(context_, graph, t.format, &data, &length) == 0 && data) {
          if (t.out) t.out->assign(data, length);
        } else {
          ok = false;
          fail(messages, t.format[0] == 's' ? "Graphviz could not render SVG" : "Graphviz could not render PNG");
        }
        if (data) gvFreeRenderData(data);
        if (!ok) break;
      }
    }
    gvFreeLayout(context_, graph);  // safe after a failed layout too: frees what it made
    agclose(graph);
    return ok;
  }

  // Keeps Graphviz's own explanation when it gave one; `fallback` otherwise.
  static bool fail(std::string* messages, const char* fallback) {
    if (trimmed(*messages).empty()) *messages = fallback;
    return false;
  }

  std::mutex mutex_;
  GVC_t* context_ = nullptr;
};

Renderer& renderer() {
  static Renderer the_renderer;
  return the_renderer;
}

}  // namespace

bool render_svg(const std::string& dot, std::string* svg, std::string* error) {
  return renderer().render(dot, {{"svg", svg}}, error);
}

bool render_svg_and_png(const std::string& dot, std::string* svg, std::string* png, std::string* error) {
  return renderer().render(dot, {{"svg", svg}, {"png", png}}, error);
}

}  // namespace relay::repl
