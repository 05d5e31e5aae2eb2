#include "tests/support/random_program.h"

#include <random>
#include <string_view>
#include <vector>

namespace relay::testing {

namespace {

struct Ctor {
  std::string name;
  int arity = 0;
};

struct Adt {
  std::string name;
  std::vector<std::string> params;
  std::vector<Ctor> ctors;
};

struct Global {
  std::string name;
  int arity = 0;
};

const char* const kOps[] = {"add",        "subtract",       "multiply",      "nn.relu",
                            "sigmoid",    "tanh",           "nn.dense",      "nn.conv2d",
                            "nn.bias_add", "nn.softmax",    "concatenate",   "zeros",
                            "split",      "reshape",        "transpose",     "where",
                            "sum",        "cast",           "nn.batch_flatten", "equal"};

const char* const kAttrKeys[] = {"axis",    "units",      "strides",  "padding", "dtype",
                                 "layout",  "keepdims",   "epsilon",  "newshape", "axes",
                                 "shape",   "out_dtype",  "data_layout", "channels",
                                 "kernel_size", "indices_or_sections", "exclude", "value"};

const char* const kDTypes[] = {"float32", "float16", "float64", "int8",  "int32",
                               "int64",   "uint8",   "bool",    "bfloat16", "int16"};

class Gen {
 public:
  Gen(uint64_t seed, const RandomProgramOptions& o) : rng_(seed), opt_(o) {}

  std::string run() {
    tok("#[version = \"0.0.5\"]");
    nl();
    if (chance(0.3)) {
      tok("#[import = \"prelude\"]");
      nl();
    }
    if (opt_.comments && chance(0.5)) line_comment();
    // Declare everything first: globals may be referenced before their definition.
    int nadt = rand(3);
    for (int i = 0; i < nadt; ++i) {
      Adt a;
      a.name = "T" + std::to_string(i);
      int np = rand(3);
      static const char* names[] = {"A", "B", "C"};
      for (int k = 0; k < np; ++k) a.params.push_back(names[k]);
      int nc = 1 + rand(3);
      for (int k = 0; k < nc; ++k) a.ctors.push_back(Ctor{a.name + "C" + std::to_string(k), rand(3)});
      adts_.push_back(a);
    }
    int ndef = 1 + rand(opt_.max_defs);
    for (int i = 0; i < ndef; ++i) globals_.push_back(Global{"f" + std::to_string(i), rand(4)});
    for (const Adt& a : adts_) {
      blank();
      type_def(a);
    }
    for (const Global& g : globals_) {
      blank();
      func_def(g);
    }
    if (chance(0.15)) {
      blank();
      tok("extern");
      sp();
      tok("type");
      sp();
      tok("Ext");
      if (chance(0.5)) {
        tok("[");
        tok("X");
        tok("]");
      }
      nl();
    }
    if (opt_.comments && chance(0.5)) line_comment();
    return std::move(out_);
  }

 private:
  // ---- randomness ------------------------------------------------------------------------
  int rand(int n) { return n <= 1 ? 0 : std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  template <class T, size_t N>
  const T& pick(const T (&a)[N]) {
    return a[rand(static_cast<int>(N))];
  }

  // ---- layout ----------------------------------------------------------------------------
  void tok(std::string_view s) { out_ += s; }
  void nl() { out_ += '\n'; }
  void blank() { out_ += opt_.messy_layout && chance(0.3) ? "\n\n\n" : "\n"; }
  void comment() {
    std::string n = std::to_string(comment_no_++);
    if (chance(0.5)) {
      out_ += "/* c" + n + " */";
    } else {
      out_ += "// c" + n + "\n";
    }
  }
  void line_comment() {
    out_ += "// c" + std::to_string(comment_no_++) + "\n";
  }
  void messy_ws() {
    switch (rand(5)) {
      case 0: out_ += "  "; break;
      case 1: out_ += "\n"; break;
      case 2: out_ += "\n    "; break;
      case 3: out_ += "\t"; break;
      default: out_ += " "; break;
    }
  }
  // Optional space between two tokens.
  void gap() {
    if (opt_.messy_layout && chance(0.1)) messy_ws();
    if (opt_.comments && chance(0.04)) {
      out_ += ' ';
      comment();
      out_ += ' ';
    }
  }
  // Required space between two tokens.
  void sp() {
    if (opt_.messy_layout && chance(0.2)) {
      messy_ws();
    } else {
      out_ += ' ';
    }
    if (opt_.comments && chance(0.04)) {
      comment();
      out_ += ' ';
    }
  }
  // A line break between bindings / definitions.
  void line() {
    if (opt_.comments && chance(0.1)) {
      out_ += ' ';
      comment();
    }
    if (opt_.messy_layout && chance(0.3)) {
      out_ += chance(0.5) ? " " : "\n\n  ";
    } else {
      out_ += "\n  ";
    }
    if (opt_.comments && chance(0.08)) {
      line_comment();
      out_ += "  ";
    }
  }

  // ---- names -----------------------------------------------------------------------------
  std::string fresh_local() {
    static const char* const stems[] = {"x", "y", "v", "acc", "fc1.weight", "conv/w", "_t", "data"};
    if (!locals_.empty() && chance(0.15)) return locals_[rand(static_cast<int>(locals_.size()))];  // shadow
    return std::string(pick(stems)) + std::to_string(name_no_++);
  }
  std::string local_name(const std::string& n) { return "%" + n; }

  // ---- types -----------------------------------------------------------------------------
  void dim(int depth) {
    int k = rand(depth > 0 ? 7 : 5);
    switch (k) {
      case 0:
      case 1: tok(std::to_string(1 + rand(512))); break;
      case 2: tok("?"); break;
      case 3: tok(std::to_string(rand(64)) + "i64"); break;
      case 4: tok(chance(0.5) ? "n" : "batch"); break;
      case 5: {
        static const char* ops[] = {" + ", " - ", " * ", " / "};
        dim(depth - 1);
        tok(pick(ops));
        dim(depth - 1);
        break;
      }
      default:
        tok("(");
        dim(depth - 1);
        tok(" * 2)");
        break;
    }
  }

  void type(int depth) {
    int k = rand(depth > 0 ? 11 : 5);
    switch (k) {
      case 0:
      case 1: {
        tok("Tensor[(");
        int n = rand(4);
        for (int i = 0; i < n; ++i) {
          if (i) {
            tok(",");
            gap();
            tok(" ");
          }
          dim(1);
        }
        tok("),");
        sp();
        tok(pick(kDTypes));
        tok("]");
        break;
      }
      case 2: {
        static const char* scalars[] = {"float32", "int32", "int64", "bool", "uint8", "float16"};
        tok(pick(scalars));
        break;
      }
      case 3:
        if (!tparams_.empty()) {
          tok(tparams_[rand(static_cast<int>(tparams_.size()))]);
        } else {
          tok("Tensor[(), float32]");
        }
        break;
      case 4:
        if (!adts_.empty()) {
          const Adt& a = adts_[rand(static_cast<int>(adts_.size()))];
          tok(a.name);
          if (!a.params.empty() || chance(0.3)) {
            tok("[");
            for (size_t i = 0; i < a.params.size(); ++i) {
              if (i) tok(", ");
              type(depth - 1);
            }
            tok("]");
          }
        } else {
          tok("int8");
        }
        break;
      case 5:
      case 6: {
        tok("(");
        int n = rand(4);
        for (int i = 0; i < n; ++i) {
          if (i) tok(", ");
          type(depth - 1);
        }
        if (n == 1) tok(",");
        tok(")");
        break;
      }
      case 7: {
        tok("fn");
        sp();
        bool poly = chance(0.2);
        if (poly) {
          tok("[Q]");
          tparams_.push_back("Q");
        }
        tok("(");
        int n = rand(3);
        for (int i = 0; i < n; ++i) {
          if (i) tok(", ");
          type(depth - 1);
        }
        tok(")");
        sp();
        tok("->");
        sp();
        type(depth - 1);
        if (poly) tparams_.pop_back();
        break;
      }
      case 8:
        tok("ref(");
        type(depth - 1);
        tok(")");
        break;
      case 9:
        tok("Tensor[(");
        tok(std::to_string(rand(10)));
        tok("), ");
        tok(pick(kDTypes));
        tok("]");
        break;
      default:
        tok("(_, ");
        type(depth - 1);
        tok(")");
        break;
    }
  }

  // ---- definitions -----------------------------------------------------------------------
  void type_def(const Adt& a) {
    if (chance(0.3)) {
      tok("/// The type " + a.name + ".");
      nl();
    }
    tok("type");
    sp();
    tok(a.name);
    if (!a.params.empty()) {
      tok("[");
      for (size_t i = 0; i < a.params.size(); ++i) {
        if (i) {
          tok(",");
          sp();
        }
        tok(a.params[i]);
      }
      tok("]");
    }
    sp();
    tok("{");
    tparams_ = a.params;
    for (size_t c = 0; c < a.ctors.size(); ++c) {
      nl();
      tok("  ");
      tok(a.ctors[c].name);
      int n = a.ctors[c].arity;
      if (n > 0 || chance(0.2)) {
        tok("(");
        for (int i = 0; i < n; ++i) {
          if (i) {
            tok(",");
            sp();
          }
          if (chance(0.3)) {
            // Recursive field.
            tok(a.name);
            if (!a.params.empty()) {
              tok("[");
              for (size_t k = 0; k < a.params.size(); ++k) {
                if (k) tok(", ");
                tok(a.params[k]);
              }
              tok("]");
            }
          } else {
            type(1);
          }
        }
        tok(")");
      }
      if (c + 1 < a.ctors.size() || chance(0.5)) tok(",");
      if (opt_.comments && chance(0.2)) {
        tok(" ");
        comment();
      }
    }
    tparams_.clear();
    nl();
    tok("}");
    nl();
  }

  void func_def(const Global& g) {
    if (chance(0.3)) {
      tok("/// Documentation of @" + g.name + ".");
      nl();
      if (chance(0.5)) {
        tok("/// Second line.");
        nl();
      }
    }
    tok("def @" + g.name);
    function_rest(g.arity, opt_.max_depth);
    nl();
  }

  // [type params](params, attrs) -> R { body }
  void function_rest(int arity, int depth) {
    size_t tmark = tparams_.size();
    if (chance(0.3)) {
      tok("[");
      int n = 1 + rand(2);
      for (int i = 0; i < n; ++i) {
        if (i) tok(", ");
        std::string p = std::string(1, static_cast<char>('P' + i)) + std::to_string(tparam_no_++);
        tok(p);
        tparams_.push_back(p);
      }
      tok("]");
    }
    tok("(");
    size_t mark = locals_.size();
    std::vector<std::string> names;
    for (int i = 0; i < arity; ++i) {
      if (i) {
        tok(",");
        sp();
      }
      gap();
      std::string n;
      do {
        n = "p" + std::to_string(name_no_++);
      } while (false);
      tok(local_name(n));
      if (chance(0.1)) {
        tok(" {virtual_device=");
        attr_value(0);
        tok("}");
      }
      if (chance(0.7)) {
        tok(":");
        sp();
        type(2);
      }
      names.push_back(n);
    }
    if (chance(0.2)) {
      if (arity) {
        tok(",");
        sp();
      }
      attrs(1 + rand(2), 1);
    }
    gap();
    tok(")");
    if (chance(0.5)) {
      sp();
      tok("->");
      sp();
      type(2);
    }
    sp();
    tok("{");
    for (auto& n : names) locals_.push_back(n);
    indent_block(depth);
    locals_.resize(mark);
    tparams_.resize(tmark);
    tok("}");
  }

  // ---- attributes ------------------------------------------------------------------------
  void attrs(int n, int depth) {
    for (int i = 0; i < n; ++i) {
      if (i) {
        tok(",");
        sp();
      }
      std::string key = pick(kAttrKeys);
      if (i > 0 && chance(0.1)) key = "relay.reshape_only";
      if (i > 0 && chance(0.1)) key = "attrs_type_key";
      // Keys must be distinct within one list.
      key += std::to_string(i);
      tok(key);
      tok("=");
      attr_value(depth);
    }
  }

  void attr_value(int depth) {
    int k = rand(depth > 0 ? 12 : 9);
    switch (k) {
      case 0: {
        static const char* ints[] = {"0", "1", "-1", "64", "3i64", "-2i16", "2147483647",
                                     "3000000000", "7i"};
        tok(pick(ints));
        break;
      }
      case 1: {
        static const char* floats[] = {"1f", "0.5f", "1e-05f", "-3.25f", "2f64", "0.1f16", "1.5",
                                       "1e+20f"};
        tok(pick(floats));
        break;
      }
      case 2: tok(chance(0.5) ? "True" : "False"); break;
      case 3: {
        static const char* strings[] = {"\"NCHW\"", "\"\"", "\"float32\"", "\"a\\\"b\"",
                                        "\"tab\\there\"", "\"back\\\\slash\"", "\"line\\nbreak\""};
        tok(pick(strings));
        break;
      }
      case 4: tok(chance(0.7) ? "None" : "nullptr"); break;
      case 5:
      case 6: {
        tok("[");
        int n = rand(4);
        for (int i = 0; i < n; ++i) {
          if (i) {
            tok(",");
            sp();
          }
          if (depth > 0 && chance(0.3)) {
            attr_value(depth - 1);
          } else {
            tok(std::to_string(rand(8)));
          }
        }
        tok("]");
        break;
      }
      case 7:
        if (!locals_.empty()) {
          tok(local_name(locals_[rand(static_cast<int>(locals_.size()))]));
        } else {
          tok("@" + globals_[rand(static_cast<int>(globals_.size()))].name);
        }
        break;
      case 8:
        tok("(");
        tok(std::to_string(rand(5)));
        tok(")");
        break;
      case 9:
        // A tuple projection or a call as the value.
        if (!locals_.empty() && chance(0.5)) {
          tok(local_name(locals_[rand(static_cast<int>(locals_.size()))]));
          tok(".");
          tok(std::to_string(rand(3)));
        } else {
          tok("@" + globals_[rand(static_cast<int>(globals_.size()))].name + "()");
        }
        break;
      case 10:
        // `(a, b)`: an array written with parentheses.
        tok("(1, 2)");
        break;
      default:
        tok("[[1, 2], []]");
        break;
    }
  }

  // ---- blocks ----------------------------------------------------------------------------
  // A block inside braces: newline, bindings, result, newline.
  void indent_block(int depth) {
    line();
    block(depth);
    nl();
  }

  void block(int depth) {
    size_t mark = locals_.size();
    int n = depth > 0 ? rand(4) : rand(2);
    for (int i = 0; i < n; ++i) {
      binding(depth);
      line();
    }
    item(depth - 1);
    locals_.resize(mark);
  }

  void binding(int depth) {
    int k = rand(10);
    if (k < 4) {
      tok("let");
      sp();
      std::string n = fresh_local();
      tok(local_name(n));
      if (chance(0.4)) {
        tok(":");
        sp();
        type(2);
      }
      sp();
      tok("=");
      sp();
      // The let variable is visible in its own value (local recursion).
      locals_.push_back(n);
      rhs(depth - 1);
      gap();
      tok(";");
    } else if (k < 7) {
      std::string n = std::to_string(graph_no_++);
      tok("%" + n);
      sp();
      tok("=");
      sp();
      rhs(depth - 1);
      gap();
      tok(";");
      locals_.push_back(n);
    } else if (k < 9) {
      item(depth - 1);
      gap();
      tok(";");
    } else {
      tok("free_var");
      sp();
      std::string n = "fv" + std::to_string(name_no_++);
      tok(local_name(n));
      if (chance(0.7)) {
        tok(":");
        sp();
        type(1);
      }
      tok(";");
      locals_.push_back(n);
    }
  }

  // A let / graph binding value: `binop` or `match`, else parenthesised.
  void rhs(int depth) {
    int k = rand(10);
    if (k == 0 && depth > 0) {
      match(depth);
    } else if (k == 1 && depth > 0) {
      paren_block(depth);
    } else {
      expr(depth);
    }
  }

  // A block result or sequenced value: braced blocks and `match` are allowed as is.
  void item(int depth) {
    int k = rand(12);
    if (k == 0 && depth > 0) {
      tok("{");
      indent_block(depth);
      tok("}");
    } else if (k == 1 && depth > 0) {
      match(depth);
    } else {
      expr(depth);
    }
  }

  void paren_block(int depth) {
    tok("(");
    gap();
    size_t mark = locals_.size();
    int n = 1 + rand(2);
    for (int i = 0; i < n; ++i) {
      binding(depth);
      sp();
    }
    expr(depth - 1);
    locals_.resize(mark);
    gap();
    tok(")");
  }

  // ---- expressions -----------------------------------------------------------------------
  void constant() {
    static const char* lits[] = {"0",      "1",     "42",     "-7",     "5i64",  "-3i16",
                                 "1f",     "0.5f",  "1e-05f", "-2.5f",  "1.5",   "2f16",
                                 "0.25f64", "True", "False",  "inff",   "-inff", "nanf",
                                 "3000000000", "1e+20f", "-0f",  "123456789i64", "0.1f"};
    tok(pick(lits));
  }

  void leaf() {
    int k = rand(10);
    if (k < 4 && !locals_.empty()) {
      tok(local_name(locals_[rand(static_cast<int>(locals_.size()))]));
    } else if (k < 5) {
      tok("@" + globals_[rand(static_cast<int>(globals_.size()))].name);
    } else if (k < 6 && !adts_.empty()) {
      const Adt& a = adts_[rand(static_cast<int>(adts_.size()))];
      tok(a.ctors[rand(static_cast<int>(a.ctors.size()))].name);
    } else if (k < 7) {
      tok(pick(kOps));
    } else {
      constant();
    }
  }

  void args(int n, int depth) {
    tok("(");
    for (int i = 0; i < n; ++i) {
      if (i) {
        tok(",");
        sp();
      }
      gap();
      if (chance(0.1) && depth > 0) {
        item(depth);  // call arguments are full expressions
      } else {
        expr(depth);
      }
    }
    if (chance(0.25)) {
      if (n) {
        tok(",");
        sp();
      }
      attrs(1 + rand(3), 1);
    }
    gap();
    tok(")");
  }

  // A `binop`-level expression.
  void expr(int depth) {
    if (depth <= 0) {
      leaf();
      return;
    }
    int k = rand(20);
    switch (k) {
      case 0:
      case 1: leaf(); break;
      case 2:
      case 3:
        tok(pick(kOps));
        args(rand(3), depth - 1);
        break;
      case 4: {
        const Global& g = globals_[rand(static_cast<int>(globals_.size()))];
        tok("@" + g.name);
        args(g.arity, depth - 1);
        break;
      }
      case 5:
        if (!adts_.empty()) {
          const Adt& a = adts_[rand(static_cast<int>(adts_.size()))];
          const Ctor& c = a.ctors[rand(static_cast<int>(a.ctors.size()))];
          tok(c.name);
          tok("(");
          for (int i = 0; i < c.arity; ++i) {
            if (i) tok(", ");
            expr(depth - 1);
          }
          tok(")");
        } else {
          leaf();
        }
        break;
      case 6:
      case 7: infix(depth); break;
      case 8: {
        tok("-");
        operand(depth - 1, true);
        break;
      }
      case 9: {
        tok("(");
        int n = rand(4);
        for (int i = 0; i < n; ++i) {
          if (i) {
            tok(",");
            sp();
          }
          expr(depth - 1);
        }
        if (n == 1) tok(",");
        tok(")");
        break;
      }
      case 10: {
        // Projection: the base is atomic.
        int b = rand(3);
        if (b == 0 && !locals_.empty()) {
          tok(local_name(locals_[rand(static_cast<int>(locals_.size()))]));
        } else {
          tok("(");
          expr(depth - 1);
          tok(")");
        }
        gap();
        tok(".");
        tok(std::to_string(rand(4)));
        break;
      }
      case 11: if_expr(depth); break;
      case 12: {
        tok("fn");
        sp();
        function_rest(rand(3), depth - 1);
        break;
      }
      case 13: {
        int r = rand(3);
        if (r == 0) {
          tok("ref(");
          expr(depth - 1);
          tok(")");
        } else if (r == 1) {
          tok("ref_read(");
          expr(depth - 1);
          tok(")");
        } else {
          tok("ref_write(");
          expr(depth - 1);
          tok(",");
          sp();
          expr(depth - 1);
          tok(")");
        }
        break;
      }
      case 14:
        // Local function call, possibly curried.
        if (!locals_.empty()) {
          tok(local_name(locals_[rand(static_cast<int>(locals_.size()))]));
          args(rand(3), depth - 1);
          if (chance(0.2)) args(1, depth - 1);
        } else {
          leaf();
        }
        break;
      case 15:
        // Redundant parentheses.
        tok("(");
        expr(depth - 1);
        tok(")");
        break;
      case 16:
        tok("(");
        match(depth - 1);
        tok(")");
        break;
      case 17:
        paren_block(depth);
        break;
      default:
        tok(pick(kOps));
        args(1 + rand(2), depth - 1);
        break;
    }
  }

  // An infix operand; `unary` when it follows unary minus.
  void operand(int depth, bool unary) {
    int k = rand(8);
    if (depth <= 0 || k < 3) {
      if (unary && chance(0.5)) {
        tok("(");
        constant();
        tok(")");
      } else if (unary) {
        if (!locals_.empty()) tok(local_name(locals_[rand(static_cast<int>(locals_.size()))]));
        else tok("@" + globals_[0].name);
      } else {
        leaf();
      }
    } else if (k < 5) {
      tok("(");
      expr(depth - 1);
      tok(")");
    } else if (k < 6 && !unary) {
      infix(depth - 1);
    } else {
      tok(pick(kOps));
      args(1 + rand(2), depth - 1);
    }
  }

  void infix(int depth) {
    static const char* ops[] = {"+", "-", "*", "/", "<", "<=", ">", ">=", "==", "!="};
    operand(depth - 1, false);
    sp();
    tok(pick(ops));
    sp();
    operand(depth - 1, false);
  }

  void if_expr(int depth) {
    tok("if");
    sp();
    tok("(");
    expr(depth - 1);
    tok(")");
    sp();
    tok("{");
    indent_block(depth - 1);
    tok("}");
    sp();
    tok("else");
    sp();
    tok("{");
    indent_block(depth - 1);
    tok("}");
  }

  // ---- match -----------------------------------------------------------------------------
  void pattern(int depth, std::vector<std::string>& bound) {
    int k = rand(depth > 0 ? 6 : 3);
    switch (k) {
      case 0: tok("_"); break;
      case 1:
      case 2: {
        std::string n = "m" + std::to_string(name_no_++);
        tok(local_name(n));
        if (chance(0.2)) {
          tok(":");
          sp();
          type(1);
        }
        bound.push_back(n);
        break;
      }
      case 3:
      case 4:
        if (!adts_.empty()) {
          const Adt& a = adts_[rand(static_cast<int>(adts_.size()))];
          const Ctor& c = a.ctors[rand(static_cast<int>(a.ctors.size()))];
          tok(c.name);
          if (c.arity > 0 || chance(0.3)) {
            tok("(");
            for (int i = 0; i < c.arity; ++i) {
              if (i) {
                tok(",");
                sp();
              }
              pattern(depth - 1, bound);
            }
            tok(")");
          }
          break;
        }
        [[fallthrough]];
      default: {
        tok("(");
        int n = rand(4);
        for (int i = 0; i < n; ++i) {
          if (i) {
            tok(",");
            sp();
          }
          pattern(depth - 1, bound);
        }
        if (n == 1 && chance(0.5)) tok(",");
        tok(")");
        break;
      }
    }
  }

  void match(int depth) {
    tok(chance(0.7) ? "match" : "match?");
    sp();
    if (chance(0.2)) {
      tok("(");
      expr(depth - 1);
      tok(", ");
      expr(depth - 1);
      tok(")");
    } else {
      tok("(");
      expr(depth - 1);
      tok(")");
    }
    sp();
    tok("{");
    int n = 1 + rand(3);
    for (int i = 0; i < n; ++i) {
      line();
      std::vector<std::string> bound;
      pattern(2, bound);
      sp();
      tok("=>");
      sp();
      size_t mark = locals_.size();
      for (auto& b : bound) locals_.push_back(b);
      if (chance(0.5)) {
        tok("{");
        indent_block(depth - 1);
        tok("}");
      } else {
        expr(depth - 1);
      }
      locals_.resize(mark);
      if (i + 1 < n || chance(0.5)) tok(",");
    }
    nl();
    tok("}");
  }

  std::mt19937_64 rng_;
  RandomProgramOptions opt_;
  std::string out_;
  int comment_no_ = 0;
  int name_no_ = 0;
  int graph_no_ = 0;
  int tparam_no_ = 0;
  std::vector<Adt> adts_;
  std::vector<Global> globals_;
  std::vector<std::string> locals_;
  std::vector<std::string> tparams_;
};

}  // namespace

std::string random_program(uint64_t seed, const RandomProgramOptions& options) {
  return Gen(seed, options).run();
}

}  // namespace relay::testing
