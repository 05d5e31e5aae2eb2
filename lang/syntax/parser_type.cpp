// Literals, types, shape dimensions and patterns.
#include <cfloat>
#include <charconv>
#include <cmath>
#include <limits>

#include "lang/syntax/parser_impl.h"

namespace relay::detail {

namespace {

const char* const kCommonDTypes[] = {"float32", "float16", "float64", "int8", "int16", "int32",
                                     "int64", "uint8", "uint16", "uint32", "uint64", "bool",
                                     "bfloat16"};

std::string dtype_suggestion(std::string_view s) {
  std::vector<std::string_view> candidates(std::begin(kCommonDTypes), std::end(kCommonDTypes));
  return closest_match(s, candidates);
}

}  // namespace

Expr* Parser::parse_literal(bool negative, uint32_t begin) {
  Token t = bump();
  std::string_view text = token_text(t);
  auto* c = make<ConstantExpr>(from(begin));
  std::string shown = (negative ? "-" : "") + std::string(text.substr(0, 60));
  if (t.kind == Tok::Float) {
    c->has_suffix = true;
    if (text == "inff" || text == "nanf") {
      c->dtype = DataType::float_(32);
      c->float_value = text == "inff" ? std::numeric_limits<double>::infinity()
                                      : std::numeric_limits<double>::quiet_NaN();
      if (negative) c->float_value = -c->float_value;
      return c;
    }
    std::string_view digits = text, suffix;
    if (auto f = text.find_first_of("f"); f != std::string_view::npos) {
      digits = text.substr(0, f);
      suffix = text.substr(f);
    } else {
      c->has_suffix = false;
    }
    int bits = suffix.size() > 1 ? std::stoi(std::string(suffix.substr(1))) : 32;
    c->dtype = DataType::float_(bits);
    double v = 0;
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    // float32: out of range means rounding overflows, so FLT_MAX's shortest spelling
    // 3.4028235e+38f (a hair above it as a double) is fine. float16 follows TVM, which
    // rejects anything above 65504 (e.g. `65505f16`).
    bool overflows = bits == 16   ? std::fabs(v) > 65504.0
                     : bits == 32 ? std::isinf(static_cast<float>(v))
                                  : false;
    if (r.ec == std::errc::result_out_of_range || (r.ec == std::errc() && overflows)) {
      diags_.emit(DiagKind::NumberOutOfRange, c->span, {shown, dtype_name(c->dtype)});
    } else if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) {
      diags_.emit(DiagKind::InvalidNumber, c->span, {shown});
    }
    c->float_value = negative ? -v : v;
    return c;
  }
  // Integer: digits with an optional i/i16/i32/i64 suffix.
  std::string_view digits = text, suffix;
  if (auto i = text.find('i'); i != std::string_view::npos) {
    digits = text.substr(0, i);
    suffix = text.substr(i);
    c->has_suffix = true;
  }
  int bits = suffix.size() > 1 ? std::stoi(std::string(suffix.substr(1))) : 32;
  uint64_t mag = 0;
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), mag);
  bool overflow = r.ec == std::errc::result_out_of_range;
  if (r.ec != std::errc() && !overflow) {
    diags_.emit(DiagKind::InvalidNumber, c->span, {shown});
  }
  // Magnitude limits for a signed value of `bits` bits.
  auto fits = [&](int b) {
    if (overflow) return false;
    uint64_t limit = (uint64_t{1} << (b - 1)) - (negative ? 0 : 1);
    return mag <= limit;
  };
  if (suffix.empty() && !fits(32)) bits = 64;  // TVM: an unsuffixed literal that needs it is int64
  c->dtype = DataType::int_(bits);
  if (!fits(bits)) {
    diags_.emit(DiagKind::NumberOutOfRange, c->span, {shown, dtype_name(c->dtype)});
    mag = 0;
  }
  c->int_value = static_cast<int64_t>(negative ? 0 - mag : mag);  // no overflow at INT64_MIN
  return c;
}

Type* Parser::parse_type() {
  DepthGuard guard(*this);
  uint32_t begin = peek().begin;
  if (!guard.ok) {
    too_deep();
    return module_.arena.make<Type>(TypeKind::Error, from(begin));
  }
  const Token& t = peek();
  switch (t.kind) {
    case Tok::LParen: {
      Token open = bump();
      std::vector<Type*> fields;
      while (!at(Tok::RParen) && !at(Tok::Eof)) {
        uint32_t before = peek().begin;
        fields.push_back(parse_type());
        if (!eat(Tok::Comma) || peek().begin == before) break;
      }
      expect_close(Tok::RParen, open);
      auto* tt = module_.arena.make<TupleType>(from(begin));
      tt->fields = module_.arena.copy(fields);
      return tt;
    }
    case Tok::KwFn: {
      bump();
      auto* ft = module_.arena.make<FuncType>(from(begin));
      if (at(Tok::LBracket)) ft->type_params = parse_type_params();
      std::vector<Type*> params;
      if (at(Tok::LParen)) {
        Token open = bump();
        while (!at(Tok::RParen) && !at(Tok::Eof)) {
          uint32_t before = peek().begin;
          params.push_back(parse_type());
          if (!eat(Tok::Comma) || peek().begin == before) break;
        }
        expect_close(Tok::RParen, open);
      } else {
        expect(Tok::LParen, "`(` and the parameter types");
      }
      ft->params = module_.arena.copy(params);
      if (at(Tok::Minus) && peek(1).kind == Tok::Gt) {
        bump();
        bump();
        ft->ret = parse_type();
      } else if (expect(Tok::Arrow, "`->` and the result type")) {
        ft->ret = parse_type();
      } else if (at(Tok::Ident) || at(Tok::LParen) || at(Tok::KwFn)) {
        ft->ret = parse_type();  // `fn (A) B`: read B as the result type anyway
      } else {
        ft->ret = module_.arena.make<Type>(TypeKind::Error, span(prev_end_, prev_end_));
      }
      ft->span = from(begin);
      return ft;
    }
    case Tok::KwRef: {
      bump();
      auto* rt = module_.arena.make<RefType>(from(begin));
      if (at(Tok::LParen)) {
        Token open = bump();
        rt->value = parse_type();
        expect_close(Tok::RParen, open);
      } else {
        expect(Tok::LParen, "`(`");
        rt->value = module_.arena.make<Type>(TypeKind::Error, span(prev_end_, prev_end_));
      }
      rt->span = from(begin);
      return rt;
    }
    case Tok::Ident: {
      std::string_view name = token_text(t);
      if (name == "Tensor" && peek(1).kind == Tok::LBracket) return parse_tensor_type(begin);
      if (name == "_") {
        bump();
        return module_.arena.make<Type>(TypeKind::Incomplete, from(begin));
      }
      if (auto dt = parse_dtype(name); dt && !dt->is_void() && dt->code != DataType::Handle) {
        bump();
        auto* tt = module_.arena.make<TensorType>(from(begin));
        tt->dtype = *dt;
        tt->dtype_text = name;
        tt->scalar_shorthand = true;
        return tt;
      }
      bump();
      auto* nt = module_.arena.make<NamedType>(from(begin));
      nt->name = name;
      if (at(Tok::LBracket)) {
        Token open = bump();
        nt->has_brackets = true;
        std::vector<Type*> args;
        while (!at(Tok::RBracket) && !at(Tok::Eof)) {
          uint32_t before = peek().begin;
          args.push_back(parse_type());
          if (!eat(Tok::Comma) || peek().begin == before) break;
        }
        expect_close(Tok::RBracket, open);
        nt->args = module_.arena.copy(args);
      }
      nt->span = from(begin);
      return nt;
    }
    default:
      break;
  }
  error(DiagKind::ExpectedType, tok_span(t), {found_description()});
  if (at(Tok::LBracket)) {
    skip_group();  // e.g. `[float32]`: skip the whole bracketed group
  } else if (!at_closing() && !at(Tok::Comma) && !at(Tok::Semi) && !at(Tok::Eq) && !at(Tok::LBrace) &&
      !at_definition_start())
    bump();
  return module_.arena.make<Type>(TypeKind::Error, from(begin));
}

Type* Parser::parse_tensor_type(uint32_t begin) {
  bump();  // Tensor
  Token open = bump();  // [
  auto* tt = module_.arena.make<TensorType>(from(begin));
  std::vector<DimExpr*> dims;
  if (at(Tok::LParen)) {
    Token lp = bump();
    while (!at(Tok::RParen) && !at(Tok::Eof)) {
      uint32_t before = peek().begin;
      dims.push_back(parse_dim(0));
      if (!eat(Tok::Comma) || peek().begin == before) break;
    }
    expect_close(Tok::RParen, lp);
  } else {
    error(DiagKind::ExpectedToken, tok_span(peek()), {"a shape like `(1, 3, 224, 224)`", found_description()});
    skip_until({Tok::Comma, Tok::RBracket});
  }
  tt->shape = module_.arena.copy(dims);
  tt->dtype = DataType::float_(32);
  if (expect(Tok::Comma, "`,` and the data type")) {
    if (at(Tok::Ident)) {
      Token d = bump();
      std::string_view name = token_text(d);
      tt->dtype_text = name;
      if (auto dt = parse_dtype(name)) {
        tt->dtype = *dt;
      } else {
        auto& diag = diags_.emit(DiagKind::UnknownDType, tok_span(d), {std::string(name)});
        std::string s = dtype_suggestion(name);
        if (!s.empty()) diag.help("did you mean `" + s + "`?", {TextEdit{tok_span(d), s}});
        diag.note("data types are written like `float32`, `int8`, `uint16`, `bool`, `float16x4`");
      }
    } else {
      error(DiagKind::ExpectedToken, tok_span(peek()), {"a data type like `float32`", found_description()});
      skip_until({Tok::RBracket});
    }
  } else {
    skip_until({Tok::RBracket});
  }
  expect_close(Tok::RBracket, open);
  tt->span = from(begin);
  return tt;
}

DimExpr* Parser::parse_dim(int min_prec) {
  uint32_t begin = peek().begin;
  DimExpr* lhs = parse_dim_primary();
  int chain = 0;
  for (;;) {
    DimKind kind;
    int prec;
    switch (peek().kind) {
      case Tok::Plus: kind = DimKind::Add; prec = 10; break;
      case Tok::Minus: kind = DimKind::Sub; prec = 10; break;
      case Tok::Star: kind = DimKind::Mul; prec = 12; break;
      case Tok::Slash: kind = DimKind::Div; prec = 12; break;
      default: return lhs;
    }
    if (prec < min_prec) return lhs;
    if (depth_ + ++chain > kMaxNestingDepth) {
      // The tree is left-deep: bound its depth like any other nesting.
      too_deep();
      return lhs;
    }
    bump();
    DepthGuard guard(*this);
    if (!guard.ok) {
      too_deep();
      return lhs;
    }
    DimExpr* rhs = parse_dim(prec + 1);
    auto* d = module_.arena.make<DimExpr>();
    d->kind = kind;
    d->lhs = lhs;
    d->rhs = rhs;
    d->span = from(begin);
    lhs = d;
  }
}

DimExpr* Parser::parse_dim_primary() {
  uint32_t begin = peek().begin;
  auto* d = module_.arena.make<DimExpr>();
  const Token& t = peek();
  switch (t.kind) {
    case Tok::Integer: {
      Expr* lit = parse_literal(false, begin);
      auto* c = as<ConstantExpr>(lit);
      d->kind = DimKind::Const;
      d->value = c->int_value;
      d->dtype = c->dtype;
      break;
    }
    case Tok::Question:
      bump();
      d->kind = DimKind::Any;
      break;
    case Tok::Meta: {
      Token m = bump();
      std::string_view s = token_text(m);
      size_t close = s.find(']');
      d->kind = DimKind::Meta;
      d->meta_key = s.substr(5, close - 5);
      uint32_t idx = 0;
      for (char c : s.substr(close + 2, s.size() - close - 3)) idx = idx * 10 + static_cast<uint32_t>(c - '0');
      d->meta_index = idx;
      break;
    }
    case Tok::Ident: {
      Token n = bump();
      d->kind = DimKind::Name;
      d->name = token_text(n);
      break;
    }
    case Tok::LParen: {
      DepthGuard guard(*this);
      if (!guard.ok) {
        too_deep();
        d->kind = DimKind::Error;
        break;
      }
      Token open = bump();
      DimExpr* inner = parse_dim(0);
      expect_close(Tok::RParen, open);
      inner->parenthesized = true;
      inner->span = from(begin);
      return inner;
    }
    default: {
      // `-1` (reshape's "infer this dimension") is a common slip: consume it whole.
      bool negative = t.kind == Tok::Minus && peek(1).kind == Tok::Integer;
      Span bad = negative ? span(t.begin, peek(1).end) : tok_span(t);
      if (auto* diag = error(DiagKind::InvalidShapeDimension, bad); diag && negative)
        diag->note("dimensions are non-negative; write `?` for a dimension that is not known statically");
      d->kind = DimKind::Error;
      if (negative) {
        bump();
        bump();
      } else if (!at_closing() && !at(Tok::Comma)) {
        bump();
      }
      break;
    }
  }
  d->span = from(begin);
  return d;
}

Pattern* Parser::parse_pattern() {
  DepthGuard guard(*this);
  uint32_t begin = peek().begin;
  auto* p = module_.arena.make<Pattern>();
  if (!guard.ok) {
    too_deep(/*skip=*/false);  // the clause's recovery skips to its end
    p->kind = PatternKind::Error;
    p->span = from(begin);
    return p;
  }
  const Token& t = peek();
  auto field_list = [&](Tok close) {
    Token open = bump();
    std::vector<Pattern*> fields;
    while (!at(close) && !at(Tok::Eof)) {
      uint32_t before = peek().begin;
      fields.push_back(parse_pattern());
      if (!eat(Tok::Comma) || peek().begin == before) break;
    }
    expect_close(close, open);
    return module_.arena.copy(fields);
  };
  if (t.kind == Tok::Ident && token_text(t) == "_") {
    bump();
    p->kind = PatternKind::Wildcard;
  } else if (t.kind == Tok::Local) {
    p->kind = PatternKind::Var;
    p->var = make_var(bump(), VarKind::Pattern);
    if (eat(Tok::Colon)) p->var->annotation = parse_type();
  } else if (t.kind == Tok::Ident) {
    Token name = bump();
    p->kind = PatternKind::Ctor;
    p->ctor_name = token_text(name);
    if (at(Tok::LParen)) {
      p->has_parens = true;
      p->fields = field_list(Tok::RParen);
    }
  } else if (t.kind == Tok::LParen) {
    p->kind = PatternKind::Tuple;
    p->fields = field_list(Tok::RParen);
  } else {
    error(DiagKind::ExpectedPattern, tok_span(t), {found_description()});
    p->kind = PatternKind::Error;
    if (!at_closing() && !at(Tok::Comma) && !at(Tok::FatArrow)) bump();
  }
  p->span = from(begin);
  return p;
}

}  // namespace relay::detail
