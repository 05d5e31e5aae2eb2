// Printer for the loop IR (print.h). Variables print as their name plus id (names need
// not be unique; ids are).
#include "compiler/loops/print.h"

#include <cstdio>
#include <sstream>
#include <unordered_map>

namespace relay::loops {
namespace {

std::string var_name(const std::string& name, int id) { return name + std::to_string(id); }

std::string shape_text(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

class Printer {
 public:
  explicit Printer(const Kernel& k) : k_(k) {}

  std::string expr(const Expr& e) {
    switch (e->kind) {
      case ExprKind::IntImm:
        if (e->dtype.is_bool()) return e->int_value ? "true" : "false";
        if (e->dtype == i64()) return std::to_string(e->int_value);
        return dtype_name(e->dtype) + "(" + std::to_string(e->int_value) + ")";
      case ExprKind::FloatImm: {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", e->float_value);
        return e->dtype == f32() ? std::string(buf) + "f" : dtype_name(e->dtype) + "(" + buf + ")";
      }
      case ExprKind::Var: return var_name(var_names_.count(e->id) ? var_names_[e->id] : "v", e->id);
      case ExprKind::Load: return k_.buffer(e->id).name + "[" + expr(e->args[0]) + "]";
      case ExprKind::Unary:
        return std::string(static_cast<UnaryOp>(e->op) == UnaryOp::Neg ? "-" : "~") + "(" + expr(e->args[0]) + ")";
      case ExprKind::Binary: {
        const auto op = static_cast<BinaryOp>(e->op);
        if (op == BinaryOp::Add || op == BinaryOp::Sub || op == BinaryOp::Mul) {
          static const char* const sym[] = {" + ", " - ", " * "};
          return "(" + expr(e->args[0]) + sym[static_cast<int>(op)] + expr(e->args[1]) + ")";
        }
        return std::string(name_of(op)) + "(" + expr(e->args[0]) + ", " + expr(e->args[1]) + ")";
      }
      case ExprKind::Compare:
        return "(" + expr(e->args[0]) + " " + name_of(static_cast<CmpOp>(e->op)) + " " + expr(e->args[1]) + ")";
      case ExprKind::Select:
        return "select(" + expr(e->args[0]) + ", " + expr(e->args[1]) + ", " + expr(e->args[2]) + ")";
      case ExprKind::Cast: return dtype_name(e->dtype) + "(" + expr(e->args[0]) + ")";
      case ExprKind::Call: {
        std::string s = std::string(name_of(static_cast<MathFn>(e->op))) + "(";
        for (size_t i = 0; i < e->args.size(); ++i) s += (i ? ", " : "") + expr(e->args[i]);
        return s + ")";
      }
    }
    return "?";
  }

  void block(const Block& b, int depth) {
    for (const Stmt& s : b) stmt(s, depth);
  }

  void stmt(const Stmt& s, int depth) {
    const std::string pad(static_cast<size_t>(depth) * 2, ' ');
    switch (s.kind) {
      case StmtKind::For:
        var_names_[s.var.id] = s.var.name;
        out_ << pad << name_of(s.loop_kind) << " for " << var_name(s.var.name, s.var.id) << " in [0, "
             << expr(s.extent) << ") {\n";
        block(s.body, depth + 1);
        out_ << pad << "}\n";
        break;
      case StmtKind::Let:
        var_names_[s.var.id] = s.var.name;
        out_ << pad << "let " << var_name(s.var.name, s.var.id) << ": " << dtype_name(s.var.dtype) << " = "
             << expr(s.value) << ";\n";
        break;
      case StmtKind::Store:
        out_ << pad << k_.buffer(s.buffer).name << "[" << expr(s.index) << "] = " << expr(s.value) << ";\n";
        break;
      case StmtKind::Alloc: {
        const Buffer& b = k_.buffer(s.buffer);
        out_ << pad << "alloc " << b.name << ": " << dtype_name(b.dtype) << shape_text(b.shape)
             << (b.thread_slot ? " per thread" : "") << (b.shared ? " shared" : "") << ";\n";
        break;
      }
      case StmtKind::Mma: {
        const MmaOperands& o = s.mma;
        out_ << pad << k_.buffer(s.buffer).name << "{fragment " << expr(s.index) << "} += mma("
             << k_.buffer(o.a).name << "[" << expr(o.a_offset) << ", stride " << o.a_stride << "], "
             << k_.buffer(o.b).name << "[" << expr(o.b_offset) << ", stride " << o.b_stride << "]^T);\n";
        break;
      }
      case StmtKind::FragmentStore:
        out_ << pad << k_.buffer(s.mma.a).name << "[" << expr(s.mma.a_offset) << ", stride " << s.mma.a_stride
             << "] = " << k_.buffer(s.buffer).name << "{fragment " << expr(s.index) << "};\n";
        break;
      case StmtKind::LaneReduce:
        out_ << pad << "lane_reduce " << name_of(s.combine) << " " << k_.buffer(s.buffer).name << ";\n";
        break;
      case StmtKind::If:
        out_ << pad << "if " << expr(s.value) << " {\n";
        block(s.body, depth + 1);
        out_ << pad << "}\n";
        break;
    }
  }

  std::string kernel() {
    out_ << "kernel " << k_.name << "(";
    const size_t n = k_.num_params();
    for (size_t i = 0; i < n; ++i) {
      const Buffer& b = k_.buffers[i];
      out_ << (i ? ", " : "") << b.name << ": " << dtype_name(b.dtype) << shape_text(b.shape) << " strides "
           << shape_text(b.strides);
    }
    out_ << ") {\n";
    block(k_.body, 1);
    out_ << "}\n";
    return out_.str();
  }

 private:
  const Kernel& k_;
  std::ostringstream out_;
  std::unordered_map<int, std::string> var_names_;
};

}  // namespace

std::string print_kernel(const Kernel& k) { return Printer(k).kernel(); }
std::string print_expr(const Kernel& k, const Expr& e) { return Printer(k).expr(e); }

}  // namespace relay::loops
