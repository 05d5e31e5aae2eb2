"""Golden data for the random.* operators (reference §3.8), bit-exact with TVM v0.14.0.

An independent numpy model of python/tvm/topi/random/kernel.py: Threefry-4x64 with 20
rounds and no key injection after the last round (TVM injects before each group of four
rounds only), block l of a batch hashing the four counter words each plus l, the 10-word
key (key 0-3, path 4-5, counter 6-7, next path bit 8-9), generate's re-keying when the
counter is used up and split's path step. TVM tests "path full" with word 8 alone (its
`gen[8] == 0 and gen[9] == 0` is Python `and` on a PrimExpr, which keeps the first test).
uniform: the output's low 32 bits (float32) or 64 bits (float64) shifted right to keep 23
(52) bits, or-ed with the exponent of 1.0, reinterpreted and minus 1, then *(high-low)+low.
normal: Box-Muller over uniform draws of shape (2,) + out_shape: sqrt(-2 log(1-u0)) *
sin(2 pi u1) * scale + mean. multinomial: float32 probabilities clipped at 0, normalised,
cumulative; sample = the first index whose cumulative probability exceeds a uniform draw.
threefry_kat() checks the block function (with the final injection turned on) against
Random123's known-answer vectors before any golden is written.
"""
import numpy as np

from families.common import Case, program

M64 = (1 << 64) - 1
ROT = [(14, 16), (52, 57), (23, 40), (5, 37), (25, 33), (46, 12), (58, 22), (32, 32)]
PARITY = 0x1BD11BDAA9FC1A22


def rotl(v, r):
    return ((v << np.uint64(r)) | (v >> np.uint64(64 - r))).astype(np.uint64)


def block(key, ctr, final=False):
    """Threefry-4x64-20 of counter rows `ctr` (n, 4) under `key` (4 ints)."""
    ks = [int(k) for k in key] + [PARITY ^ key[0] ^ key[1] ^ key[2] ^ key[3]]
    x = [np.array(ctr[:, j], dtype=np.uint64) for j in range(4)]
    with np.errstate(over="ignore"):
        def inject(s):
            for j in range(4):
                add = (ks[(s + j) % 5] + (s if j == 3 else 0)) & M64
                x[j] = x[j] + np.uint64(add)
        for s in range(5):
            inject(s)
            for r in range(4):
                r0, r1 = ROT[(s * 4 + r) % 8]
                x[0] = x[0] + x[1]
                x[1] = rotl(x[1], r0) ^ x[0]
                x[2] = x[2] + x[3]
                x[3] = rotl(x[3], r1) ^ x[2]
                x[1], x[3] = x[3], x[1]
        if final:
            inject(5)
    return np.stack(x, axis=1)


def blocks(key, ctr, n):
    rows = np.array([[(int(c) + l) & M64 for c in ctr] for l in range(n)], dtype=np.uint64).reshape(n, 4)
    return block(key, rows).reshape(-1)


def shift_marker(hi, lo):
    if hi == 1:
        return 0, 1 << 63
    if hi == 0:
        return 0, lo >> 1
    return hi >> 1, 0


def generate(gen, count):
    g = [int(v) for v in gen]
    tmp = list(g)
    if not g[7] < M64 - count:
        if g[8] == 0:
            k = block(g[:4], np.array([[M64] * 4], dtype=np.uint64))[0]
            tmp = [int(v) for v in k] + [0, 0, 0, 0, 1 << 63, 0]
        else:
            tmp[4], tmp[5] = g[4] | g[8], g[5] | g[9]
            tmp[6] = tmp[7] = 0
            tmp[8], tmp[9] = shift_marker(g[8], g[9])
    whole = count // 4
    out = list(blocks(tmp[:4], tmp[4:8], whole)) if whole else []
    advance = count
    if count % 4:
        tmp[7] = (tmp[7] + whole * 4) & M64
        out += list(blocks(tmp[:4], tmp[4:8], 1))[: count % 4]
        advance = 4
    nxt = list(tmp)
    nxt[6] = 0
    nxt[7] = (tmp[7] + advance) & M64
    return np.array(nxt, dtype=np.uint64), np.array(out, dtype=np.uint64)


def split(gen):
    g = [int(v) for v in gen]
    if g[8] == 0:
        k = [int(v) for v in block(g[:4], np.array([g[4:8]], dtype=np.uint64))[0]]
        return (np.array(k + [0, 0, 0, 0, 1 << 62, 0], dtype=np.uint64),
                np.array(k + [1 << 63, 0, 0, 0, 1 << 62, 0], dtype=np.uint64))
    left, right = list(g), list(g)
    right[4], right[5] = g[4] | g[8], g[5] | g[9]
    left[8], left[9] = shift_marker(g[8], g[9])
    right[8], right[9] = shift_marker(g[8], g[9])
    return np.array(left, dtype=np.uint64), np.array(right, dtype=np.uint64)


def threefry_key(seed):
    """tvm.relay.random.threefry_key(seed): the seed's 32 little-endian bytes as words 0-3,
    then [0, 0, 0, 0, 1 << 63, 0]."""
    return np.array([seed, 0, 0, 0, 0, 0, 0, 0, 1 << 63, 0], dtype=np.uint64)


def standard_uniform(bits, dtype):
    if dtype == "float32":
        b = (bits & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        m = (b >> np.uint32(9)) | np.uint32(127 << 23)
        return m.view(np.float32) - np.float32(1)
    m = (bits >> np.uint64(12)) | np.uint64(1023 << 52)
    return m.view(np.float64) - np.float64(1)


def uniform(gen, low, high, shape, dtype):
    n = int(np.prod(shape))
    key, bits = generate(gen, n)
    u = standard_uniform(bits, dtype).reshape(shape)
    t = np.dtype(dtype).type
    return key, (u * (t(high) - t(low)) + t(low)).astype(dtype)


def normal(gen, mean, scale, shape, dtype):
    key, u = uniform(gen, 0.0, 1.0, (2,) + tuple(shape), dtype)
    t = np.dtype(dtype).type
    r = np.sqrt(t(-2.0) * np.log(t(1.0) - u[0]))
    s = np.sin(t(2.0 * np.pi) * u[1])
    return key, ((r * s) * t(scale) + t(mean)).astype(dtype)


def multinomial(gen, probs, num_samples):
    p = np.maximum(probs.astype(np.float32), np.float32(0))
    total = np.zeros(p.shape[:-1], np.float32)
    for k in range(p.shape[-1]):  # TVM's sum: a sequential float32 reduction
        total = total + p[..., k]
    p = p / total[..., None]
    cum = np.zeros_like(p)
    acc = np.zeros(p.shape[:-1], np.float32)
    for k in range(p.shape[-1]):
        acc = acc + p[..., k]
        cum[..., k] = acc
    key, u = uniform(gen, 0.0, 1.0, p.shape[:-1] + (num_samples,), "float32")
    closest = cum[..., :, None] - u[..., None, :]
    closest = np.where(closest > 0, closest, np.float32(1))
    return key, np.argmin(closest, axis=-2).astype("int32")


def threefry_kat():
    z, f = [0] * 4, [M64] * 4
    pi_ctr = [0x243F6A8885A308D3, 0x13198A2E03707344, 0xA4093822299F31D0, 0x082EFA98EC4E6C89]
    pi_key = [0x452821E638D01377, 0xBE5466CF34E90C6C, 0xBE5466CF34E90C6C, 0xC0AC29B7C97C50DD]
    kat = [(z, z, [0x09218EBDE6C85537, 0x55941F5266D86105, 0x4BD25E16282434DC, 0xEE29EC846BD2E40B]),
           (f, f, [0x29C24097942BBA1B, 0x0371BBFB0F6F4E11, 0x3C231FFA33F83A1C, 0xCD29113FDE32D168]),
           (pi_ctr, pi_key, [0xA7E8FDE591651BD9, 0xBAAFD0C30138319B, 0x84A5C1A729E685B9, 0x901D406CCEBC1BA4])]
    for ctr, key, want in kat:
        got = block(key, np.array([ctr], dtype=np.uint64), final=True)[0]
        assert [int(v) for v in got] == want, (ctr, key, [hex(int(v)) for v in got])


KEY_T = "Tensor[(10), uint64]"


def key_case(name, body, inputs, outputs, extra_params=""):
    params = "%x0: " + KEY_T + extra_params
    prog = '#[version = "0.0.5"]\ndef @main(%s) {\n  %s\n}\n' % (params, body)
    return Case(name, prog, inputs, outputs, tuple=True, rtol=0, atol=0)


def keys():
    """Seeded keys and keys in the states where generate or split change path or key."""
    out = {"seed0": threefry_key(0), "seed42": threefry_key(42)}
    k = threefry_key(7)
    for _ in range(3):
        k = split(k)[1]
    out["split3"] = k
    full_counter = threefry_key(5)
    full_counter[7] = np.uint64(M64 - 3)  # the counter has no room for 8 more values
    out["counter_full"] = full_counter
    deep = threefry_key(9)
    deep[8], deep[9] = np.uint64(0), np.uint64(1 << 40)  # marker in word 9: TVM re-keys
    deep[7] = np.uint64(M64 - 1)
    out["marker_word9"] = deep
    last = threefry_key(11)
    last[8] = np.uint64(1)  # the last bit of word 8: the marker moves into word 9
    out["marker_last"] = last
    return out


def cases():
    threefry_kat()
    out = []
    for kname, key in keys().items():
        for shape in ((8,), (2, 3), (5,), (1,)):
            tag = "x".join(map(str, shape))
            nk, vals = generate(key, int(np.prod(shape)))
            out.append(key_case("generate_%s_%s" % (kname, tag),
                                "random.threefry_generate(%%x0, out_shape=[%s])" % ", ".join(map(str, shape)),
                                [key], [nk, vals.reshape(shape)]))
        left, right = split(key)
        out.append(key_case("split_%s" % kname, "random.threefry_split(%x0)", [key], [left, right]))
    # Chains: split, generate on the right child, generate again from the new key.
    k0 = threefry_key(1234)
    left, right = split(k0)
    k1, a = generate(right, 4)
    k2, b = generate(k1, 6)
    prog_body = ("%0 = random.threefry_split(%x0);\n  %1 = random.threefry_generate(%0.1, out_shape=[4]);\n"
                 "  %2 = random.threefry_generate(%1.0, out_shape=[6]);\n  (%2.0, %1.1, %2.1, %0.0)")
    out.append(key_case("chain_split_generate", prog_body, [k0], [k2, a, b, left]))
    for dtype in ("float32", "float64"):
        for kname in ("seed0", "split3", "counter_full"):
            key = keys()[kname]
            for shape, lo, hi in (((3, 4), -2.0, 3.0), ((7,), 0.0, 1.0)):
                tag = "x".join(map(str, shape))
                nk, vals = uniform(key, lo, hi, shape, dtype)
                low, high = np.array(lo, dtype), np.array(hi, dtype)
                body = 'random.uniform(%%x0, %%x1, %%x2, out_shape=[%s], out_dtype="%s")' % (
                    ", ".join(map(str, shape)), dtype)
                out.append(key_case("uniform_%s_%s_%s" % (dtype, kname, tag), body, [key, low, high], [nk, vals],
                                    extra_params=", %%x1: Tensor[(), %s], %%x2: Tensor[(), %s]" % (dtype, dtype)))
                nk, vals = normal(key, lo, hi + 2, shape, dtype)
                mean, scale = np.array(lo, dtype), np.array(hi + 2, dtype)
                body = body.replace("random.uniform", "random.normal")
                c = key_case("normal_%s_%s_%s" % (dtype, kname, tag), body, [key, mean, scale], [nk, vals],
                             extra_params=", %%x1: Tensor[(), %s], %%x2: Tensor[(), %s]" % (dtype, dtype))
                # log and sin of the platform's libm may differ from TVM's in the last bit.
                c.rtol, c.atol = (1e-5, 1e-6) if dtype == "float32" else (1e-12, 1e-12)
                out.append(c)
    for kname in ("seed0", "seed42", "split3"):
        key = keys()[kname]
        for shape, ns in (((5,), 4), ((3, 4), 3), ((2, 2, 6), 5)):
            probs = np.random.default_rng(len(out)).uniform(-0.2, 1.0, shape).astype("float32")
            probs[..., 0] = 0.5  # at least one positive entry per row
            nk, idx = multinomial(key, probs, ns)
            tag = "x".join(map(str, shape))
            out.append(key_case("multinomial_%s_%s" % (kname, tag),
                                "random.multinomial(%%x0, %%x1, num_samples=%d)" % ns, [key, probs], [nk, idx],
                                extra_params=", %%x1: Tensor[(%s), float32]" % ", ".join(map(str, shape))))
    return out
