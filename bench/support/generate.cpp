#include "bench/support/generate.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace relay::bench {

namespace {

// splitmix64: the same sequence everywhere (std:: distributions are not portable).
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi].
  int range(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<uint64_t>(hi - lo + 1)); }
  template <class T, size_t N>
  T pick(const T (&a)[N]) { return a[next() % N]; }

 private:
  uint64_t s_;
};

std::string tensor(std::initializer_list<int> dims, std::string_view dtype = "float32") {
  std::string s = "Tensor[(";
  bool first = true;
  for (int d : dims) {
    if (!first) s += ", ";
    first = false;
    s += std::to_string(d);
  }
  s += "), ";
  s += dtype;
  s += "]";
  return s;
}

class Writer {
 public:
  explicit Writer(uint64_t seed) : rng_(seed) {}

  GeneratedModule run(size_t min_lines) {
    out_.text.reserve(min_lines * 110);
    line("#[version = \"0.0.5\"]");
    // @main takes kMainCalls + 4 lines (fewer only when there are fewer functions).
    while (out_.lines + kMainCalls + 4 < min_lines) {
      switch (rng_.range(0, 9)) {
        case 0: case 1: case 2: case 3: conv_block(); break;
        case 4: case 5: dense_block(); break;
        case 6: case 7: recurrent_block(); break;
        default: fused_block(); break;
      }
    }
    main_function();
    return std::move(out_);
  }

 private:
  static constexpr size_t kMainCalls = 8;

  struct Param {
    std::string name, type;
  };

  void line(std::string_view s) {
    out_.text.append(s);
    out_.text.push_back('\n');
    ++out_.lines;
  }

  // A fresh `%N`: one counter for the whole module, as TVM prints.
  std::string next_graph_var() {
    std::string v = "%";  // (not `"%" + to_string`: GCC 12 warns -Wrestrict on that)
    v += std::to_string(graph_++);
    return v;
  }

  // `%N = value /* ty=T */;`.
  std::string bind(std::string_view value, std::string_view type, int indent = 2) {
    std::string v = next_graph_var();
    std::string s(indent, ' ');
    s += v;
    s += " = ";
    s += value;
    s += " /* ty=";
    s += type;
    s += " */;";
    line(s);
    return v;
  }

  void header(const std::string& name, const std::vector<Param>& params, const std::string& ret) {
    std::string s = "def @" + name + "(";
    for (size_t i = 0; i < params.size(); ++i) {
      if (i) s += ", ";
      s += "%" + params[i].name + ": " + params[i].type + " /* ty=" + params[i].type + " */";
    }
    s += ") -> " + ret + " {";
    if (out_.functions > 0) line("");
    line(s);
    ++out_.functions;
    globals_.push_back(Global{name, params, ret});
  }

  // ResNet-style stage: units of conv2d + batch_norm + projection + relu, a residual add.
  void conv_block() {
    static const int kChannels[] = {16, 32, 64, 128, 256, 512};
    static const int kSizes[] = {7, 14, 28, 56, 112};
    int c = rng_.pick(kChannels), hw = rng_.pick(kSizes), units = rng_.range(2, 12);
    std::string act = tensor({1, c, hw, hw}), vec = tensor({c});
    std::string name = "conv_block_" + std::to_string(out_.functions);
    std::vector<Param> params{{"data", act}};
    for (int u = 0; u < units; ++u) {
      std::string p = "unit" + std::to_string(u) + "_";
      int k = rng_.range(0, 3) == 0 ? 1 : 3;
      params.push_back({p + "conv_weight", tensor({c, c, k, k})});
      for (const char* s : {"bn_gamma", "bn_beta", "bn_moving_mean", "bn_moving_var"})
        params.push_back({p + s, vec});
    }
    header(name, params, act);
    std::string x = "%data";
    for (int u = 0; u < units; ++u) {
      std::string p = "%unit" + std::to_string(u) + "_";
      int k = params[1 + u * 5].type.find(", 1, 1)") != std::string::npos ? 1 : 3;
      std::string pad = k == 1 ? "[0, 0, 0, 0]" : "[1, 1, 1, 1]";
      std::string conv = bind("nn.conv2d(" + x + ", " + p + "conv_weight, padding=" + pad +
                                  ", channels=" + std::to_string(c) + ", kernel_size=[" +
                                  std::to_string(k) + ", " + std::to_string(k) + "])",
                              act);
      std::string bn = bind("nn.batch_norm(" + conv + ", " + p + "bn_gamma, " + p + "bn_beta, " +
                                p + "bn_moving_mean, " + p + "bn_moving_var, epsilon=2e-05f)",
                            "(" + act + ", " + vec + ", " + vec + ")");
      std::string proj = bind(bn + ".0", act);
      x = bind("nn.relu(" + proj + ")", act);
    }
    std::string sum = bind("add(" + x + ", %data)", act);
    if (rng_.range(0, 1)) {
      line("  let %out: " + act + " /* ty=" + act + " */ = nn.relu(" + sum + ") /* ty=" + act + " */;");
      line("  %out");
    } else {
      line("  nn.relu(" + sum + ") /* ty=" + act + " */");
    }
    line("}");
  }

  // MLP head: flatten, dense + bias_add + relu layers, reshape, softmax.
  void dense_block() {
    static const int kWidths[] = {10, 64, 128, 256, 512, 1000, 4096};
    int layers = rng_.range(2, 8);
    std::vector<int> widths{rng_.pick(kWidths)};
    for (int i = 0; i < layers; ++i) widths.push_back(rng_.pick(kWidths));
    std::string name = "dense_block_" + std::to_string(out_.functions);
    std::vector<Param> params{{"data", tensor({1, widths[0], 1, 1})}};
    for (int i = 0; i < layers; ++i) {
      params.push_back({"fc" + std::to_string(i) + "_weight", tensor({widths[i + 1], widths[i]})});
      params.push_back({"fc" + std::to_string(i) + "_bias", tensor({widths[i + 1]})});
    }
    std::string out_ty = tensor({1, widths.back()});
    header(name, params, out_ty);
    std::string x = bind("nn.batch_flatten(%data)", tensor({1, widths[0]}));
    for (int i = 0; i < layers; ++i) {
      std::string ty = tensor({1, widths[i + 1]});
      std::string p = "%fc" + std::to_string(i) + "_";
      std::string d = bind("nn.dense(" + x + ", " + p + "weight, units=" + std::to_string(widths[i + 1]) + ")", ty);
      std::string b = bind("nn.bias_add(" + d + ", " + p + "bias, axis=-1)", ty);
      x = i + 1 < layers ? bind("nn.relu(" + b + ")", ty) : b;
    }
    std::string r = bind("reshape(" + x + ", newshape=[1, -1])", out_ty);
    line("  nn.softmax(" + r + ") /* ty=" + out_ty + " */");
    line("}");
  }

  // LSTM-style cell unrolled over steps: annotated lets, split into a tuple, projections,
  // a closure bound to a graph variable and called once per step, tuple results.
  void recurrent_block() {
    static const int kHidden[] = {16, 32, 64, 128};
    int h = rng_.pick(kHidden), steps = rng_.range(1, 4);
    std::string hv = tensor({1, h}), gv = tensor({1, 4 * h});
    std::string wi = tensor({4 * h, h}), bi = tensor({4 * h});
    std::string state = "(" + hv + ", " + hv + ")";
    std::string result = "(" + hv + ", " + state + ")";
    std::string name = "recurrent_block_" + std::to_string(out_.functions);
    std::vector<Param> params{{"data", hv}, {"i2h_weight", wi}, {"i2h_bias", bi},
                              {"h2h_weight", wi}, {"h2h_bias", bi}};
    header(name, params, result);
    line("  let %zeros: " + hv + " /* ty=" + hv + " */ = zeros(shape=[1, " + std::to_string(h) +
         "], dtype=\"float32\") /* ty=" + hv + " */;");
    line("  let %init_states: " + state + " /* ty=" + state + " */ = (%zeros, %zeros) /* ty=" + state + " */;");
    std::string fty = "fn (" + hv + ", " + state + ", " + wi + ", " + bi + ", " + wi + ", " + bi + ") -> " + result;
    std::string cell = next_graph_var();
    line("  " + cell + " = fn (%inputs: " + hv + " /* ty=" + hv + " */, %states: " + state + " /* ty=" +
         state + " */, %iw: " + wi + ", %ib: " + bi + ", %hw: " + wi + ", %hb: " + bi + ") -> " + result + " {");
    std::string d0 = bind("nn.dense(%inputs, %iw, units=" + std::to_string(4 * h) + ")", gv, 4);
    line("    let %i2h: " + gv + " /* ty=" + gv + " */ = nn.bias_add(" + d0 + ", %ib, axis=-1) /* ty=" + gv + " */;");
    std::string s0 = bind("%states.0", hv, 4);
    std::string d1 = bind("nn.dense(" + s0 + ", %hw, units=" + std::to_string(4 * h) + ")", gv, 4);
    line("    let %h2h: " + gv + " /* ty=" + gv + " */ = nn.bias_add(" + d1 + ", %hb, axis=-1) /* ty=" + gv + " */;");
    line("    let %gates: " + gv + " /* ty=" + gv + " */ = add(%i2h, %h2h) /* ty=" + gv + " */;");
    std::string four = "(" + hv + ", " + hv + ", " + hv + ", " + hv + ")";
    line("    let %slice: " + four + " /* ty=" + four + " */ = split(%gates, indices_or_sections=4, axis=1) /* ty=" + four + " */;");
    std::string g[4];
    const char* fns[] = {"sigmoid", "sigmoid", "tanh", "sigmoid"};
    for (int i = 0; i < 4; ++i) {
      std::string p = bind("%slice." + std::to_string(i), hv, 4);
      g[i] = bind(std::string(fns[i]) + "(" + p + ")", hv, 4);
    }
    std::string c0 = bind("%states.1", hv, 4);
    std::string m0 = bind("multiply(" + g[1] + ", " + c0 + ")", hv, 4);
    std::string m1 = bind("multiply(" + g[0] + ", " + g[2] + ")", hv, 4);
    line("    let %next_c: " + hv + " /* ty=" + hv + " */ = add(" + m0 + ", " + m1 + ") /* ty=" + hv + " */;");
    std::string t = bind("tanh(%next_c)", hv, 4);
    line("    let %next_h: " + hv + " /* ty=" + hv + " */ = multiply(" + g[3] + ", " + t + ") /* ty=" + hv + " */;");
    std::string st = bind("(%next_h, %next_c)", state, 4);
    line("    (%next_h, " + st + ") /* ty=" + result + " */");
    line("  } /* ty=" + fty + " */;");
    std::string states = "%init_states", call;
    for (int s = 0; s < steps; ++s) {
      std::string k = std::to_string(s);
      call = "%call_" + k;
      line("  let " + call + ": " + result + " /* ty=" + result + " */ = " + cell + "(%data, " + states +
           ", %i2h_weight, %i2h_bias, %h2h_weight, %h2h_bias) /* ty=" + result + " */;");
      states = "%states_" + k;
      line("  let " + states + ": " + state + " /* ty=" + state + " */ = " + call + ".1 /* ty=" + state + " */;");
    }
    line("  let %out: " + hv + " /* ty=" + hv + " */ = " + call + ".0 /* ty=" + hv + " */;");
    line("  (%out, " + states + ") /* ty=" + result + " */");
    line("}");
  }

  // Fused operators as TVM prints them after FuseOps: a `Primitive=1` function bound to a
  // graph variable, then called.
  void fused_block() {
    static const int kChannels[] = {32, 64, 128};
    int c = rng_.pick(kChannels), hw = rng_.pick(kChannels) / 4, n = rng_.range(2, 10);
    std::string act = tensor({1, c, hw, hw}), w = tensor({c, c, 3, 3}), b = tensor({c, 1, 1});
    std::string name = "fused_block_" + std::to_string(out_.functions);
    header(name, {{"x", act}, {"w", w}, {"b", b}}, act);
    std::string x = "%x";
    std::string fty = "fn (" + act + ", " + w + ", " + b + ") -> " + act;
    for (int i = 0; i < n; ++i) {
      std::string f = next_graph_var();
      line("  " + f + " = fn (%p0: " + act + ", %p1: " + w + ", %p2: " + b + ", Primitive=1) -> " + act + " {");
      std::string conv = bind("nn.conv2d(%p0, %p1, padding=[1, 1, 1, 1], channels=" + std::to_string(c) + ", kernel_size=[3, 3])", act, 4);
      std::string add = bind("add(" + conv + ", %p2)", act, 4);
      line("    nn.relu(" + add + ") /* ty=" + act + " */");
      line("  } /* ty=" + fty + " */;");
      x = bind(f + "(" + x + ", %w, %b)", act);
    }
    line("  " + x);
    line("}");
  }

  // `ones(shape=[16, 16, 3, 3], dtype="float32")` for `Tensor[(16, 16, 3, 3), float32]`: an
  // argument of exactly the parameter's type, so that @main type-checks.
  static std::string ones_of(const std::string& tensor_type) {
    size_t open = tensor_type.find('('), close = tensor_type.find(')');
    size_t dtype = tensor_type.find_first_not_of(", ", close + 1), end = tensor_type.rfind(']');
    return "ones(shape=[" + tensor_type.substr(open + 1, close - open - 1) + "], dtype=\"" +
           tensor_type.substr(dtype, end - dtype) + "\")";
  }

  void main_function() {
    // @main feeds its input through a few of the blocks' signatures (a call per global,
    // bounded so that the header stays one line of reasonable length).
    std::vector<Param> params;
    std::vector<std::string> outs;
    size_t n = std::min(globals_.size(), kMainCalls);
    if (out_.functions > 0) line("");
    std::string s = "def @main(";
    for (size_t i = 0; i < n; ++i) {
      if (i) s += ", ";
      s += "%in" + std::to_string(i) + ": " + globals_[i].params[0].type;
    }
    s += ") {";
    line(s);
    ++out_.functions;
    for (size_t i = 0; i < n; ++i) {
      const Global& g = globals_[i];
      std::string call = "@" + g.name + "(%in" + std::to_string(i);
      for (size_t k = 1; k < g.params.size(); ++k) call += ", " + ones_of(g.params[k].type);
      call += ")";
      outs.push_back(bind(call, g.ret));
    }
    std::string t = "(";
    for (size_t i = 0; i < outs.size(); ++i) t += (i ? ", " : "") + outs[i];
    if (outs.size() == 1) t += ",";
    line("  " + t + ")");
    line("}");
  }

  struct Global {
    std::string name;
    std::vector<Param> params;
    std::string ret;
  };

  Rng rng_;
  GeneratedModule out_;
  uint64_t graph_ = 0;
  std::vector<Global> globals_;
};

}  // namespace

GeneratedModule generate_tvm_like_module(size_t min_lines, uint64_t seed) {
  return Writer(seed).run(min_lines);
}

}  // namespace relay::bench
