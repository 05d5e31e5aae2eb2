#include "interpreter/value_print.h"

#include <span>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "lang/syntax/ast.h"

namespace relay::rt {

namespace {

// The values directly inside `o` (none for tensors and closures).
std::span<const Value> children(const Object* o) {
  switch (o->kind()) {
    case ObjectKind::Tuple: return static_cast<const TupleObj*>(o)->fields;
    case ObjectKind::Ctor: return static_cast<const CtorObj*>(o)->fields;
    case ObjectKind::Ref: return {&static_cast<const RefObj*>(o)->value, 1};
    default: return {};
  }
}

class ValuePrinter {
 public:
  explicit ValuePrinter(const PrintOptions& options) : options_(options) {}

  std::string print(const Value& root) {
    struct LeaveRef {
      const Object* ref;
    };
    struct Item {
      const Value* value;
      size_t indent;
    };
    // Work items in reverse order of output; explicit so that nesting depth costs heap,
    // not stack.
    std::vector<std::variant<std::string, Item, LeaveRef>> todo;
    std::unordered_set<const Object*> open_refs;
    std::string out;
    todo.emplace_back(Item{&root, 0});
    while (!todo.empty()) {
      auto task = std::move(todo.back());
      todo.pop_back();
      if (auto* text = std::get_if<std::string>(&task)) {
        out += *text;
        continue;
      }
      if (auto* leave = std::get_if<LeaveRef>(&task)) {
        open_refs.erase(leave->ref);
        continue;
      }
      const auto [value, indent] = std::get<Item>(task);
      const Object* o = value->get();
      if (!o) {
        out += "<undefined>";
        continue;
      }
      switch (o->kind()) {
        case ObjectKind::Tensor:
          for (char c : tensor_text(o)) {
            out += c;
            if (c == '\n') out.append(indent, ' ');
          }
          break;
        case ObjectKind::Closure: out += "<closure>"; break;
        case ObjectKind::Ref:
          if (!open_refs.insert(o).second) {
            out += "ref(...)";  // the reference contains itself
            break;
          }
          out += "ref(";
          todo.emplace_back(LeaveRef{o});
          todo.emplace_back(std::string(")"));
          todo.emplace_back(Item{&static_cast<const RefObj*>(o)->value, indent + 4});
          break;
        case ObjectKind::Tuple:
        case ObjectKind::Ctor: {
          const std::span<const Value> fields = children(o);
          const bool is_tuple = o->kind() == ObjectKind::Tuple;
          if (!is_tuple) {
            const CtorDef* def = static_cast<const CtorObj*>(o)->ctor;
            out += def ? std::string(def->name) : "<constructor>";
            if (fields.empty()) break;
          }
          out += '(';
          if (fields.empty()) {
            out += ')';
            break;
          }
          const bool tall = multiline(*value);
          // only a tall value's fields start lines of their own: a one-line value nested
          // 200,000 deep (a long list) would otherwise build 200,000 ever longer pads
          const std::string pad = tall ? std::string(indent + 2, ' ') : std::string();
          // Pushed in reverse: the closing text first, then the fields last to first.
          if (tall) todo.emplace_back(std::string(fields.size() == 1 && is_tuple ? ",\n" : "\n") +
                                      std::string(indent, ' ') + ")");
          else todo.emplace_back(std::string(fields.size() == 1 && is_tuple ? ",)" : ")"));
          for (size_t i = fields.size(); i-- > 0;) {
            todo.emplace_back(Item{&fields[i], indent + 2});
            if (tall) todo.emplace_back(i == 0 ? "\n" + pad : ",\n" + pad);
            else if (i > 0) todo.emplace_back(std::string(", "));
          }
          break;
        }
      }
    }
    return out;
  }

 private:
  const std::string& tensor_text(const Object* o) {
    auto it = tensors_.find(o);
    if (it == tensors_.end()) {
      NDArray t(Ref<TensorObj>(const_cast<TensorObj*>(static_cast<const TensorObj*>(o))));
      it = tensors_.emplace(o, format_tensor(t, options_)).first;
    }
    return it->second;
  }

  // Whether printing `v` takes more than one line: some tensor inside it does. A
  // post-order walk with an explicit stack; a value met again while its own walk is
  // open (a reference cycle) counts as one line, as `ref(...)` will.
  bool multiline(const Value& root) {
    struct Frame {
      const Object* o;
      size_t next = 0;
      bool tall = false;
    };
    const Object* r = root.get();
    if (auto it = multi_.find(r); it != multi_.end()) return it->second;
    std::vector<Frame> stack{{r}};
    std::unordered_set<const Object*> open{r};
    bool result = false;
    while (!stack.empty()) {
      Frame& f = stack.back();
      const std::span<const Value> kids = children(f.o);
      if (f.o->kind() == ObjectKind::Tensor) f.tall = tensor_text(f.o).find('\n') != std::string::npos;
      if (f.next < kids.size()) {
        const Object* c = kids[f.next++].get();
        if (!c || open.count(c)) continue;
        if (auto it = multi_.find(c); it != multi_.end()) {
          f.tall |= it->second;
          continue;
        }
        open.insert(c);
        stack.push_back({c});
        continue;
      }
      const bool tall = f.tall;
      multi_[f.o] = tall;
      open.erase(f.o);
      stack.pop_back();
      if (stack.empty()) result = tall;
      else stack.back().tall |= tall;
    }
    return result;
  }

  const PrintOptions& options_;
  std::unordered_map<const Object*, std::string> tensors_;
  std::unordered_map<const Object*, bool> multi_;
};

}  // namespace

std::string format_value(const Value& v, const PrintOptions& options) { return ValuePrinter(options).print(v); }

}  // namespace relay::rt
