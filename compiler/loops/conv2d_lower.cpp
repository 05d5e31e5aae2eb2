// The direct convolution's loops (conv2d.h).
#include "compiler/loops/conv2d.h"

namespace relay::loops {

namespace {

Expr add(Expr a, Expr b) { return binary(BinaryOp::Add, std::move(a), std::move(b)); }
Expr mul(Expr a, int64_t b) { return b == 1 ? a : binary(BinaryOp::Mul, std::move(a), int_imm(b)); }
Expr div(Expr a, int64_t b) { return b == 1 ? a : binary(BinaryOp::Div, std::move(a), int_imm(b)); }
Expr rem(Expr a, int64_t b) { return binary(BinaryOp::Rem, std::move(a), int_imm(b)); }
Expr all(Expr a, Expr b) { return binary(BinaryOp::And, std::move(a), std::move(b)); }

}  // namespace

LoweredKernel lower_direct_conv2d(const Conv2dProgram& p, std::string name) {
  LoweredKernel r;
  const int64_t N = p.batch, C = p.channels, H = p.height, W = p.width, O = p.out_channels;
  const int64_t KH = p.kernel_h, KW = p.kernel_w, OH = p.out_h, OW = p.out_w, G = p.groups;
  if (G < 1 || C % G != 0 || O % G != 0 || KH < 1 || KW < 1 || p.strides[0] < 1 || p.strides[1] < 1 ||
      p.dilation[0] < 1 || p.dilation[1] < 1) {
    r.error = "a convolution whose channels, groups or window disagree";
    return r;
  }
  const int64_t I = C / G, per_group = O / G;
  Kernel& k = r.kernel;
  k.name = std::move(name);
  const DataType f = f32();
  const int data = add_param(k, "data", f, {N, C, H, W}, {C * H * W, H * W, W, 1});
  const int weight = add_param(k, "weight", f, {O, I, KH, KW}, {I * KH * KW, KH * KW, KW, 1});
  r.output_buffer = add_param(k, "out", f, {N, O, OH, OW}, {O * OH * OW, OH * OW, OW, 1});
  const int64_t outputs = N * O * OH * OW;
  if (outputs == 0) return r;
  const int acc = add_local(k, "acc", f, 1);

  // The output element's coordinates from the thread's flat index.
  const Var o = new_var(k, "o", i64());
  const Var ow = new_var(k, "ow", i64()), oh = new_var(k, "oh", i64()), oc = new_var(k, "oc", i64()),
            n = new_var(k, "n", i64());
  Block per_output{let(ow, rem(var_ref(o), OW)), let(oh, rem(div(var_ref(o), OW), OH)),
                   let(oc, rem(div(var_ref(o), OW * OH), O)), let(n, div(var_ref(o), OW * OH * O))};
  // The window's corner in the input, and where this output's group and filter start.
  const Var ih0 = new_var(k, "ih0", i64()), iw0 = new_var(k, "iw0", i64());
  const Var data_base = new_var(k, "data_base", i64()), weight_base = new_var(k, "weight_base", i64());
  per_output.push_back(let(ih0, add(mul(var_ref(oh), p.strides[0]), int_imm(-p.pad_begin[0]))));
  per_output.push_back(let(iw0, add(mul(var_ref(ow), p.strides[1]), int_imm(-p.pad_begin[1]))));
  per_output.push_back(
      let(data_base, add(mul(var_ref(n), C * H * W), mul(div(var_ref(oc), per_group), I * H * W))));
  per_output.push_back(let(weight_base, mul(var_ref(oc), I * KH * KW)));
  per_output.push_back(alloc(k.buffer(acc)));
  per_output.push_back(store(k.buffer(acc), int_imm(0), float_imm(0)));

  // for c, kh, kw: a tap inside the input adds data * weight to the accumulator.
  const Var c = new_var(k, "c", i64()), kh = new_var(k, "kh", i64()), kw = new_var(k, "kw", i64());
  const Var ih = new_var(k, "ih", i64()), iw = new_var(k, "iw", i64());
  const Expr data_index =
      add(add(add(var_ref(data_base), mul(var_ref(c), H * W)), mul(var_ref(ih), W)), var_ref(iw));
  const Expr weight_index =
      add(add(add(var_ref(weight_base), mul(var_ref(c), KH * KW)), mul(var_ref(kh), KW)), var_ref(kw));
  const Expr product = binary(BinaryOp::Mul, load(k.buffer(data), data_index), load(k.buffer(weight), weight_index));
  Block tap{store(k.buffer(acc), int_imm(0), binary(BinaryOp::Add, load(k.buffer(acc), int_imm(0)), product))};
  const Expr inside_w = all(compare(CmpOp::Ge, var_ref(iw), int_imm(0)), compare(CmpOp::Lt, var_ref(iw), int_imm(W)));
  Block kw_body{let(iw, add(var_ref(iw0), mul(var_ref(kw), p.dilation[1]))), if_then(inside_w, std::move(tap))};
  const Expr inside_h = all(compare(CmpOp::Ge, var_ref(ih), int_imm(0)), compare(CmpOp::Lt, var_ref(ih), int_imm(H)));
  Block kh_body{let(ih, add(var_ref(ih0), mul(var_ref(kh), p.dilation[0]))),
                if_then(inside_h, Block{for_loop(kw, int_imm(KW), LoopKind::Reduction, std::move(kw_body))})};
  Block c_body{for_loop(kh, int_imm(KH), LoopKind::Reduction, std::move(kh_body))};
  per_output.push_back(for_loop(c, int_imm(I), LoopKind::Reduction, std::move(c_body)));
  per_output.push_back(store(k.buffer(r.output_buffer), var_ref(o), load(k.buffer(acc), int_imm(0))));
  k.body.push_back(for_loop(o, int_imm(outputs), LoopKind::Parallel, std::move(per_output)));
  return r;
}

}  // namespace relay::loops
