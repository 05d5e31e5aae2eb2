// The Relay pretty printer: variables, patterns, attribute values, types and dimensions.

#include "lang/syntax/printer_internal.h"

namespace relay::printer_internal {

namespace {

int dim_prec(DimKind k) {
  switch (k) {
    case DimKind::Add:
    case DimKind::Sub: return 10;
    case DimKind::Mul:
    case DimKind::Div: return 12;
    default: return 100;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Variables, patterns, attributes

void Printer::var_decl(const VarDecl* v) {
  if (!v) {
    out_.put("<missing>");
    return;
  }
  leading(v->span.begin);
  out_.put("%" + std::string(v->name));
  trailing(v->span.end, false);
  if (!v->attrs.empty()) {
    out_.space();
    out_.put("{");
    for (size_t i = 0; i < v->attrs.size(); ++i) {
      attr(v->attrs[i]);
      if (i + 1 < v->attrs.size()) {
        sep(end_of(v->attrs[i].value), ",");
        out_.space();
      }
    }
    close(end_of(v->attrs.back().value), "}");
  }
  if (v->annotation) {
    out_.put(":");
    out_.space();
    type(v->annotation);
  }
}

void Printer::pattern(const Pattern* p) {
  if (!p) {
    out_.put("<missing>");
    return;
  }
  leading(p->span.begin);
  switch (p->kind) {
    case PatternKind::Wildcard: out_.put("_"); break;
    case PatternKind::Var: var_decl(p->var); break;
    case PatternKind::Ctor:
      out_.put(p->ctor_name);
      if (!p->fields.empty()) {
        out_.put("(");
        for (size_t i = 0; i < p->fields.size(); ++i) {
          pattern(p->fields[i]);
          if (i + 1 < p->fields.size()) {
            sep(end_of(p->fields[i]), ",");
            out_.space();
          }
        }
        close(end_of(p->fields.back()), ")");
      }
      break;
    case PatternKind::Tuple:
      out_.put("(");
      for (size_t i = 0; i < p->fields.size(); ++i) {
        pattern(p->fields[i]);
        if (i + 1 < p->fields.size() || p->fields.size() == 1) sep(end_of(p->fields[i]), ",");
        if (i + 1 < p->fields.size()) out_.space();
      }
      close(p->fields.empty() ? 0 : end_of(p->fields.back()), ")");
      break;
    case PatternKind::Error: out_.put("<error>"); break;
  }
  trailing(p->span.end, false);
}

void Printer::attr_value(const AttrValue* v) {
  if (!v) {
    out_.put("<missing>");
    return;
  }
  leading(v->span.begin);
  switch (v->kind) {
    case AttrValueKind::Int: out_.put(format_int_literal(v->int_value, v->dtype)); break;
    case AttrValueKind::Float: out_.put(format_float_literal(v->float_value, v->dtype)); break;
    case AttrValueKind::Bool: out_.put(v->int_value ? "True" : "False"); break;
    case AttrValueKind::String: out_.put("\"" + escape_string(v->text) + "\""); break;
    case AttrValueKind::None: out_.put("None"); break;
    case AttrValueKind::Array:
      out_.put("[");
      for (size_t i = 0; i < v->items.size(); ++i) {
        attr_value(v->items[i]);
        if (i + 1 < v->items.size()) {
          sep(end_of(v->items[i]), ",");
          out_.space();
        }
      }
      close(v->items.empty() ? 0 : end_of(v->items.back()), "]");
      break;
    case AttrValueKind::Expr: expr(v->expr, Ctx::Attr); break;
  }
  trailing(v->span.end, false);  // the span includes the parentheses
}

// ---------------------------------------------------------------------------------------
// Types

void Printer::type(const Type* t) {
  if (!t) {
    out_.put("_");
    return;
  }
  leading(t->span.begin);
  switch (t->kind) {
    case TypeKind::Error: out_.put("<error>"); break;
    case TypeKind::Incomplete: out_.put("_"); break;
    case TypeKind::Tensor: {
      const TensorType* tt = static_cast<const TensorType*>(t);
      std::string dt = tt->dtype_text.empty() ? dtype_name(tt->dtype) : std::string(tt->dtype_text);
      auto starts = [&](std::string_view p) { return dt.compare(0, p.size(), p) == 0; };
      if (tt->shape.empty() &&
          (starts("int") || starts("uint") || starts("float") || starts("bool"))) {
        out_.put(dt);
        break;
      }
      out_.put("Tensor[(");
      for (size_t i = 0; i < tt->shape.size(); ++i) {
        dim(tt->shape[i]);
        if (i + 1 < tt->shape.size()) {
          sep(end_of(tt->shape[i]), ",");
          out_.space();
        }
      }
      close(tt->shape.empty() ? 0 : end_of(tt->shape.back()), ")");
      out_.sep(",");
      out_.space();
      out_.put(dt);
      out_.put("]");
      break;
    }
    case TypeKind::Tuple: {
      const TupleType* tt = static_cast<const TupleType*>(t);
      out_.put("(");
      for (size_t i = 0; i < tt->fields.size(); ++i) {
        type(tt->fields[i]);
        if (i + 1 < tt->fields.size() || tt->fields.size() == 1) sep(end_of(tt->fields[i]), ",");
        if (i + 1 < tt->fields.size()) out_.space();
      }
      close(tt->fields.empty() ? 0 : end_of(tt->fields.back()), ")");
      break;
    }
    case TypeKind::Func: {
      const FuncType* ft = static_cast<const FuncType*>(t);
      out_.put("fn");
      out_.space();
      type_params(ft->type_params);
      out_.put("(");
      for (size_t i = 0; i < ft->params.size(); ++i) {
        type(ft->params[i]);
        if (i + 1 < ft->params.size()) {
          sep(end_of(ft->params[i]), ",");
          out_.space();
        }
      }
      close(ft->params.empty() ? 0 : end_of(ft->params.back()), ")");
      out_.space();
      out_.put("->");
      out_.space();
      type(ft->ret);
      break;
    }
    case TypeKind::Named: {
      const NamedType* nt = static_cast<const NamedType*>(t);
      out_.put(nt->name);
      if (!nt->args.empty() || nt->has_brackets) {
        out_.put("[");
        for (size_t i = 0; i < nt->args.size(); ++i) {
          type(nt->args[i]);
          if (i + 1 < nt->args.size()) {
            sep(end_of(nt->args[i]), ",");
            out_.space();
          }
        }
        close(end_of(nt->args.empty() ? nullptr : nt->args.back()), "]");
      }
      break;
    }
    case TypeKind::Ref:
      out_.put("ref(");
      type(static_cast<const RefType*>(t)->value);
      close(end_of(static_cast<const RefType*>(t)->value), ")");
      break;
  }
  trailing(t->span.end, false);
}

void Printer::dim(const DimExpr* d, int ctx_prec, bool right) {
  if (!d) {
    out_.put("?");
    return;
  }
  leading(d->span.begin);
  int p = dim_prec(d->kind);
  bool paren = right ? p <= ctx_prec : p < ctx_prec;
  if (paren) out_.put("(");
  switch (d->kind) {
    case DimKind::Const: out_.put(format_int_literal(d->value, d->dtype)); break;
    case DimKind::Any: out_.put("?"); break;
    case DimKind::Name: out_.put(d->name); break;
    case DimKind::Meta:
      out_.put("meta[" + std::string(d->meta_key) + "][" + std::to_string(d->meta_index) + "]");
      break;
    case DimKind::Add:
    case DimKind::Sub:
    case DimKind::Mul:
    case DimKind::Div: {
      static const char* ops[] = {"+", "-", "*", "/"};
      int k = static_cast<int>(d->kind) - static_cast<int>(DimKind::Add);
      dim(d->lhs, p, false);
      out_.space();
      out_.put(ops[k]);
      out_.space();
      dim(d->rhs, p, true);
      break;
    }
    case DimKind::Error: out_.put("<error>"); break;
  }
  if (paren) out_.sep(")");
  trailing(d->span.end, false);  // the span includes the parentheses
}

}  // namespace relay::printer_internal
