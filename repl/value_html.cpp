#include "repl/value_html.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <span>
#include <vector>

#include "interpreter/inspect/inspect.h"
#include "interpreter/runtime/print.h"
#include "lang/syntax/ast.h"

namespace relay::repl {

namespace {

// Summarised as numpy's str() summarises (its default print options).
const int64_t kTensorThreshold = rt::PrintOptions{}.threshold;
const int64_t kEdgeItems = rt::PrintOptions{}.edgeitems;
constexpr int64_t kMaxCells = 5000;         // table cells in one output
constexpr int64_t kMaxTensorCells = 1000;   // table cells for one tensor
constexpr int64_t kMaxValues = 2000;        // values (tuple fields, list items...) in one output
constexpr size_t kMaxItems = 100;           // fields or list elements shown per container
constexpr size_t kMaxInlineFields = 8;      // `(1, 2, 3)` rather than a list
constexpr int kMaxDepth = 16;               // nesting shown; deeper values become `…`
constexpr int64_t kTableCost = 8;           // counted against kMaxCells per table

constexpr const char* kEllipsis = "\u2026";
constexpr const char* kVerticalEllipsis = "\u22ee";
constexpr const char* kDiagonalEllipsis = "\u22f1";

// No stylesheet: a `<style>` element is global to the page, so one per output repeats it
// in every output, and one per session vanishes with the output that carried it (and is
// stripped from untrusted notebooks anyway). The markup reads right unstyled (tables with
// header cells, captions, bold names), and the few styles that matter sit inline on the
// elements that need them: tables start at the left (notebooks centre them) and wide ones
// scroll in their own box. Colours derive from the text colour (opacity), so light and
// dark themes both work.
constexpr const char* kTableStyle = "margin:2px 0 6px 0;border-collapse:collapse;font-variant-numeric:tabular-nums";
constexpr const char* kScrollStyle = "overflow-x:auto;max-width:100%";
constexpr const char* kMutedStyle = "opacity:.7";
constexpr const char* kFieldCellStyle = "text-align:left;vertical-align:top";
// NaN and ±Inf stand out (the debugger's variable view is often opened to find them).
constexpr const char* kNonFiniteStyle = "color:#c62828;font-weight:600";

std::string styled(const char* tag, const char* cls, const char* style) {
  return std::string("<") + tag + " class=\"" + cls + "\" style=\"" + style + "\">";
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string with_commas(int64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0 && digits[i - 1] != '-'; i -= 3) digits.insert(i, ",");
  return digits;
}

// The indices an axis shows: all, or the first and last kEdgeItems around a gap (-1).
std::vector<int64_t> shown_indices(int64_t length, bool summarise) {
  std::vector<int64_t> out;
  if (summarise && length > 2 * kEdgeItems) {
    for (int64_t i = 0; i < kEdgeItems; ++i) out.push_back(i);
    out.push_back(-1);
    for (int64_t i = length - kEdgeItems; i < length; ++i) out.push_back(i);
  } else {
    for (int64_t i = 0; i < length; ++i) out.push_back(i);
  }
  return out;
}

// A table cell for one element, as the text form prints it inside the array (numpy's
// print precision); NaN and ±Inf are marked (class `rv-nonfinite`, red).
std::string element_cell(const rt::NDArray& a, const std::function<std::string(int64_t)>& text, int64_t flat_index) {
  const bool marked = a.dtype().is_float() && !std::isfinite(a.get_double(flat_index));
  return (marked ? styled("td", "rv-nonfinite", kNonFiniteStyle) : std::string("<td>")) + html_escape(text(flat_index)) +
         "</td>";
}

class HtmlWriter {
 public:
  std::string top(const rt::Value& v, const std::string& type_text) {
    out_ = "<div class=\"relay-value\">";
    if (v.is_tensor() && v.tensor().defined() && v.tensor().ndim() == 0) {
      // A scalar is a value with its type, as IPython shows a number: `1.5 : float32`.
      out_ += "<code class=\"rv-scalar\">" + html_escape(rt::value_summary(v)) + "</code>";
      const std::string type = type_text.empty() ? rt::value_type(v.tensor()) : type_text;
      out_ += " " + styled("span", "rv-type", kMutedStyle) + ": " + html_escape(type) + "</span></div>";
      return std::move(out_);
    }
    if (!type_text.empty()) out_ += "<div class=\"rv-type\"><b>" + html_escape(type_text) + "</b></div>";
    if (v.is_tensor()) tensor(v.tensor(), type_text);
    else value(v, 0);
    out_ += "</div>";
    return std::move(out_);
  }

 private:
  // ---- tensors ------------------------------------------------------------------------

  // `shown_type`: the header already written above, not repeated.
  void tensor(const rt::NDArray& a, const std::string& shown_type = {}) {
    if (!a.defined()) {
      out_ += styled("span", "rv-muted", kMutedStyle) + "&lt;undefined&gt;</span>";
      return;
    }
    out_ += "<div class=\"rv-tensor\">";
    const std::string type = rt::value_type(a);
    if (type != shown_type) out_ += styled("div", "rv-head", kMutedStyle) + html_escape(type) + "</div>";
    // A table that shows only the edges gets the model's statistics line (min, max,
    // mean, NaN and Inf counts) for what it leaves out.
    if (a.size() > kTensorThreshold && cells_left_ > 0)
      out_ += styled("div", "rv-head rv-stats", kMutedStyle) + html_escape(rt::value_summary(a)) + "</div>";
    if (a.size() == 0) {
      out_ += "<div class=\"rv-muted\">(no elements)</div>";
    } else if (cells_left_ <= 0) {
      out_ += "<div class=\"rv-more\">" + std::string(kEllipsis) + " (output limit reached)</div>";
    } else if (a.ndim() == 0) {
      out_ += "<code class=\"rv-scalar\">" + html_escape(rt::format_element(a, 0)) + "</code>";
      --cells_left_;
    } else {
      // Its own horizontally scrolling box: a wide row never widens the page.
      out_ += styled("div", "rv-scroll", kScrollStyle);
      slices(a);
      out_ += "</div>";
    }
    out_ += "</div>";
  }

  // One table per index of the leading axes (all but the last two), captioned
  // `[i, j, :, :]`; skipped index ranges show as one `⋮` line.
  void slices(const rt::NDArray& a) {
    const size_t rank = a.ndim();
    const bool summarise = a.size() > std::min(kTensorThreshold, cells_left_);
    // Summarised, each axis still shows 7 entries: rank 4 would be 7^4 cells. One tensor
    // gets at most kMaxTensorCells of the output's cells; the slices after that are elided.
    const int64_t stop_at = cells_left_ - std::min(kMaxTensorCells, cells_left_);
    const size_t leading = rank > 2 ? rank - 2 : 0;
    std::vector<std::vector<int64_t>> axes;
    for (size_t d = 0; d < rank; ++d) axes.push_back(shown_indices(a.dim(d), summarise));
    const std::vector<int64_t> strides = rt::contiguous_strides(a.shape());
    const std::function<std::string(int64_t)> text = rt::array_element_formatter(a);

    std::vector<size_t> position(leading, 0);  // an odometer over the leading axes' shown indices
    bool last_was_gap = false;
    while (true) {
      bool gap = false;
      int64_t offset = 0;
      std::string caption = "[";
      for (size_t d = 0; d < leading; ++d) {
        const int64_t index = axes[d][position[d]];
        gap |= index < 0;
        offset += std::max<int64_t>(index, 0) * strides[d];
        caption += std::to_string(index) + ", ";
      }
      if (gap) {
        if (!last_was_gap) out_ += "<div class=\"rv-more\">" + std::string(kVerticalEllipsis) + "</div>";
        last_was_gap = true;
      } else if (cells_left_ <= stop_at) {
        out_ += "<div class=\"rv-more\">" + std::string(kEllipsis) + " (more slices not shown)</div>";
        return;
      } else {
        last_was_gap = false;
        matrix(a, text, axes, strides, offset, leading > 0 ? caption + ":, :]" : std::string());
      }
      size_t d = leading;  // advance the odometer, last axis fastest
      while (d > 0 && ++position[d - 1] == axes[d - 1].size()) position[--d] = 0;
      if (d == 0) return;
    }
  }

  // The last two axes from `offset` as rows × columns (a 1-d tensor: one row).
  void matrix(const rt::NDArray& a, const std::function<std::string(int64_t)>& text,
              const std::vector<std::vector<int64_t>>& axes,
              const std::vector<int64_t>& strides, int64_t offset, const std::string& caption) {
    const size_t rank = a.ndim();
    const std::vector<int64_t>& cols = axes[rank - 1];
    const std::vector<int64_t> single_row{0};
    const std::vector<int64_t>& rows = rank >= 2 ? axes[rank - 2] : single_row;
    const int64_t row_stride = rank >= 2 ? strides[rank - 2] : 0;
    out_ += styled("table", "rv-t", kTableStyle);
    if (!caption.empty()) out_ += "<caption style=\"text-align:left\">" + caption + "</caption>";
    out_ += "<thead><tr>";
    if (rank >= 2) out_ += "<th></th>";
    for (int64_t c : cols) out_ += c < 0 ? "<th class=\"rv-gap\"></th>" : "<th>" + std::to_string(c) + "</th>";
    out_ += "</tr></thead><tbody>";
    for (int64_t r : rows) {
      out_ += "<tr>";
      if (rank >= 2) out_ += r < 0 ? "<th class=\"rv-gap\">" + std::string(kVerticalEllipsis) + "</th>"
                                   : "<th>" + std::to_string(r) + "</th>";
      for (int64_t c : cols) {
        if (r < 0 || c < 0) {
          const char* mark = r < 0 && c < 0 ? kDiagonalEllipsis : r < 0 ? kVerticalEllipsis : kEllipsis;
          out_ += std::string("<td class=\"rv-gap\">") + mark + "</td>";
        } else {
          out_ += element_cell(a, text, offset + r * row_stride + c);
        }
      }
      out_ += "</tr>";
    }
    out_ += "</tbody></table>";
    // A table costs about as much markup as a row of cells, whatever it holds: (1000, 1, 1)
    // is 1,000 tables.
    cells_left_ -= static_cast<int64_t>(rows.size() * cols.size()) + kTableCost;
  }

  // ---- other values -------------------------------------------------------------------

  void value(const rt::Value& v, int depth) {
    if (!v.defined()) {
      out_ += styled("span", "rv-muted", kMutedStyle) + "&lt;undefined&gt;</span>";
      return;
    }
    if (--values_left_ < 0 || depth > kMaxDepth) {
      out_ += "<span class=\"rv-more\">" + std::string(kEllipsis) + "</span>";
      return;
    }
    if (is_inline(v)) {
      inline_value(v);
      return;
    }
    switch (v.kind()) {
      case rt::ObjectKind::Tensor: tensor(v.tensor()); break;
      case rt::ObjectKind::Closure: closure(v); break;
      case rt::ObjectKind::Tuple:
        group("tuple", "(" + with_commas(rt::child_counts(v).indexed) + " fields)", v, depth);
        break;
      case rt::ObjectKind::Ctor:
        if (spine_field(v.ctor()) >= 0) list(v, depth);
        else group(rt::constructor_name(v.ctor()), {}, v, depth);
        break;
      case rt::ObjectKind::Ref: reference(v, depth); break;
    }
  }

  // Collapsible: a summary line, then the first kMaxItems of the value's indexed children
  // (the inspection model's fields, numbered from 0 like projections).
  void group(const std::string& name, const std::string& note, const rt::Value& v, int depth) {
    group(name, note, rt::children(v, rt::ChildFilter::Indexed, 0, kMaxItems), rt::child_counts(v).indexed, depth);
  }
  void group(const std::string& name, const std::string& note, const std::vector<rt::Child>& shown, int64_t total,
             int depth) {
    out_ += "<div class=\"rv-group\"><b class=\"rv-name\">" + html_escape(name) + "</b>";
    if (!note.empty()) out_ += " " + styled("span", "rv-muted", kMutedStyle) + html_escape(note) + "</span>";
    out_ += "</div>";
    open_fields();
    int64_t index = 0;
    for (const rt::Child& c : shown) {
      field_row(index++);
      value(c.value, depth + 1);
      out_ += "</td></tr>";
    }
    close_fields(static_cast<size_t>(total) - shown.size());
  }

  // Fields and list items are rows of a table (index, value), not an HTML list: notebooks
  // restyle nested lists (numbering inner ones "A.", "a."), and a table reads the same
  // in every front end and unstyled.
  void open_fields() { out_ += styled("table", "rv-fields", kTableStyle) + "<tbody>"; }
  void field_row(int64_t index) {
    out_ += "<tr><th>" + std::to_string(index) + "</th>" + styled("td", "rv-field", kFieldCellStyle);
  }
  void close_fields(size_t hidden) {
    if (hidden > 0)
      out_ += "<tr><td colspan=\"2\" class=\"rv-more\" style=\"" + std::string(kFieldCellStyle) + "\">" +
              std::string(kEllipsis) + " " + with_commas(static_cast<int64_t>(hidden)) + " more</td></tr>";
    out_ += "</tbody></table>";
  }

  // A chain through one recursive field (Cons's tail) as one flat list of the other
  // fields, walked with a loop: a 10,000-element list is 10,000 nested values.
  void list(const rt::Value& head, int depth) {
    const rt::CtorObj& first = head.ctor();
    std::vector<const rt::CtorObj*> shown;
    int64_t length = 0;
    bool items_empty = true;
    const rt::Value* node = &head;
    while (node->is_ctor()) {
      const rt::CtorObj& c = node->ctor();
      const int next = spine_field(c);
      if (next < 0) break;
      if (shown.size() < kMaxItems) shown.push_back(&c);
      items_empty &= c.fields.size() == 1;
      ++length;
      node = &c.fields[static_cast<size_t>(next)];
    }
    out_ += "<div class=\"rv-group\"><b class=\"rv-name\">" + html_escape(rt::constructor_name(first)) + "</b> " +
            styled("span", "rv-muted", kMutedStyle) + "\u00d7 " + with_commas(length) + ", then</span> ";
    value(*node, depth + 1);  // the end of the chain: Nil, Z
    out_ += "</div>";
    if (!items_empty) {
      open_fields();
      int64_t index = 0;
      for (const rt::CtorObj* c : shown) {
        field_row(index++);
        if (c->ctor != first.ctor)
          out_ += "<span class=\"rv-name\">" + html_escape(rt::constructor_name(*c)) + "</span> ";
        list_item(*c, depth + 1);
        out_ += "</td></tr>";
      }
      close_fields(static_cast<size_t>(length) - shown.size());
    }
  }

  // The fields of one chain link other than the link to the next.
  void list_item(const rt::CtorObj& c, int depth) {
    const size_t skip = static_cast<size_t>(spine_field(c));
    std::vector<rt::Value> rest;
    for (size_t i = 0; i < c.fields.size(); ++i)
      if (i != skip) rest.push_back(c.fields[i]);
    if (rest.size() == 1) {
      value(rest[0], depth);
    } else if (std::all_of(rest.begin(), rest.end(), [&](const rt::Value& f) { return is_inline(f); })) {
      inline_fields(rest);
    } else {
      std::vector<rt::Child> fields;
      for (size_t i = 0; i < rest.size() && i < kMaxItems; ++i) fields.push_back({std::to_string(i), rest[i], {}});
      group("fields", {}, fields, static_cast<int64_t>(rest.size()), depth);
    }
  }

  void reference(const rt::Value& v, int depth) {
    const rt::Object* cell = v.get();
    if (std::find(open_refs_.begin(), open_refs_.end(), cell) != open_refs_.end()) {
      out_ += "ref(" + std::string(kEllipsis) + ")";  // the reference contains itself
      return;
    }
    open_refs_.push_back(cell);
    out_ += "<div class=\"rv-group\"><b class=\"rv-name\">ref</b></div>";
    open_fields();
    field_row(0);
    value(rt::children(v)[0].value, depth + 1);  // a reference's one child: what it holds
    out_ += "</td></tr>";
    close_fields(0);
    open_refs_.pop_back();
  }

  // ---- one-line values ----------------------------------------------------------------

  // Scalars, closures, nullary constructors, and small tuples, constructor values and
  // references of those one level down: `(1, 2.5)`, `Some(3)`, `ref(True)`.
  bool is_inline(const rt::Value& v) const {
    if (is_atom(v)) return true;
    if (v.is_ref()) return is_atom(v.ref().value);
    const std::vector<rt::Value>* fields = v.is_tuple()  ? &v.tuple().fields
                                           : v.is_ctor() ? &v.ctor().fields
                                                         : nullptr;
    if (!fields || fields->size() > kMaxInlineFields) return false;
    return std::all_of(fields->begin(), fields->end(), [&](const rt::Value& f) { return is_atom(f); });
  }
  static bool is_atom(const rt::Value& v) {
    if (!v.defined() || v.is_closure()) return true;
    if (v.is_tensor()) return v.tensor().defined() && v.tensor().ndim() == 0;
    if (v.is_ctor()) return v.ctor().fields.empty();
    if (v.is_tuple()) return v.tuple().fields.empty();
    return false;
  }

  void inline_value(const rt::Value& v) {
    if (!v.defined()) {
      out_ += styled("span", "rv-muted", kMutedStyle) + "&lt;undefined&gt;</span>";
    } else if (v.is_closure()) {
      closure(v);
    } else if (v.is_tensor()) {
      out_ += html_escape(rt::value_summary(v));  // a scalar: numpy's str() of it
    } else if (v.is_tuple()) {
      inline_fields(v.tuple().fields);
      if (v.tuple().fields.size() == 1) out_.insert(out_.size() - 1, ",");  // `(1,)`
    } else if (v.is_ctor()) {
      out_ += "<span class=\"rv-name\">" + html_escape(rt::constructor_name(v.ctor())) + "</span>";
      if (!v.ctor().fields.empty()) inline_fields(v.ctor().fields);
    } else {
      out_ += "ref";
      inline_fields({v.ref().value});
    }
  }

  void inline_fields(const std::vector<rt::Value>& fields) {
    out_ += "(";
    for (size_t i = 0; i < fields.size(); ++i) {
      if (i) out_ += ", ";
      inline_value(fields[i]);
    }
    out_ += ")";
  }

  // A function value as the model summarises it: `%f(%x, %y)`, `fn(%x)`, `nn.relu`.
  void closure(const rt::Value& v) {
    out_ += styled("span", "rv-muted", kMutedStyle) + html_escape(rt::value_summary(v)) + "</span>";
  }

  // ---- constructors -------------------------------------------------------------------

  // The field that continues a list-like value (Cons's tail, S's predecessor), or -1: the
  // only field declared with the constructor's own type. A constructor without its
  // declaration (no owner) is never list-like; its nesting is bounded by kMaxDepth.
  static int spine_field(const rt::CtorObj& c) {
    const CtorDef* def = c.ctor;
    if (!def || !def->owner || def->fields.size() != c.fields.size()) return -1;
    int found = -1;
    for (size_t i = 0; i < def->fields.size(); ++i) {
      const Type* t = def->fields[i];
      if (!t || t->kind != TypeKind::Named || static_cast<const NamedType*>(t)->adt != def->owner) continue;
      if (found >= 0) return -1;  // two recursive fields: a tree, not a list
      found = static_cast<int>(i);
    }
    return found >= 0 && c.fields[static_cast<size_t>(found)].is_ctor() ? found : -1;
  }

  std::string out_;
  int64_t cells_left_ = kMaxCells;
  int64_t values_left_ = kMaxValues;
  std::vector<const rt::Object*> open_refs_;
};

}  // namespace

std::string value_html(const rt::Value& v, const std::string& type_text) {
  return HtmlWriter().top(v, type_text);
}

}  // namespace relay::repl
