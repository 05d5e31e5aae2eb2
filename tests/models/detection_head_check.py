#!/usr/bin/python3
"""Runs tests/models/detection_head.relay with `relay run` on seeded inputs and weights and
compares its detections with a numpy implementation of the same SSD head (issue 17 §4).

The convolutions, softmax and layout changes are numpy (float64, then float32); the
vision operators use the numpy restatements of TOPI 0.14 in tests/kernels/families/
vision.py (prior_ref, transform_ref, nms_ref), which are independent of the C++ kernels.
The weights are drawn so that scores spread over (0, 1) and boxes overlap, so both the
threshold and the suppression decide something.

Usage: detection_head_check.py RELAY_BINARY MODEL.relay
Exit status 0 when every detection row agrees (class and suppression exactly, score and
box within 1e-4).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "kernels"))
from families.vision import nms_ref, prior_ref, transform_ref  # noqa: E402
from run_relay import run_model  # noqa: E402

F32 = np.float32
# The head's constants, as printed in detection_head.relay (generate.py, DET_*).
SIZES, RATIOS, CLASSES, IOU, TOP_K = [0.4, 0.25], [1.0, 2.0, 0.5], 3, 0.45, 40


def conv2d(x, w, b, stride, pad):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    out = np.zeros((n, o, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i:i + stride * (oh - 1) + 1:stride, j:j + stride * (ow - 1) + 1:stride]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j].astype(np.float64))
    return (out + b.astype(np.float64)[None, :, None, None]).astype(F32)


def inputs():
    g = np.random.default_rng(17)
    per_cell = len(SIZES) + len(RATIOS) - 1
    return {
        "data": g.uniform(-1, 1, (1, 3, 16, 16)).astype(F32),
        "conv_weight": (g.standard_normal((8, 3, 3, 3)) * 0.3).astype(F32),
        "conv_bias": (g.standard_normal(8) * 0.1).astype(F32),
        "cls_weight": (g.standard_normal((per_cell * CLASSES, 8, 3, 3)) * 0.3).astype(F32),
        "cls_bias": (g.standard_normal(per_cell * CLASSES) * 0.1).astype(F32),
        "loc_weight": (g.standard_normal((per_cell * 4, 8, 3, 3)) * 0.2).astype(F32),
        "loc_bias": (g.standard_normal(per_cell * 4) * 0.1).astype(F32),
    }


def reference(p):
    feat = np.maximum(conv2d(p["data"], p["conv_weight"], p["conv_bias"], 2, 1), 0)
    anchors = prior_ref(feat.shape[2], feat.shape[3], SIZES, RATIOS, (-1.0, -1.0), (0.5, 0.5), False)
    cls = conv2d(feat, p["cls_weight"], p["cls_bias"], 1, 1).transpose(0, 2, 3, 1).reshape(1, -1, CLASSES)
    logits = cls.transpose(0, 2, 1).astype(np.float64)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    cls_prob = (e / e.sum(axis=1, keepdims=True)).astype(F32)
    loc = conv2d(feat, p["loc_weight"], p["loc_bias"], 1, 1).transpose(0, 2, 3, 1).reshape(1, -1)
    boxes, valid = transform_ref(cls_prob, loc, anchors, True, 0.01, (0.1, 0.1, 0.2, 0.2), False)
    return nms_ref(boxes, valid, None, -1, F32(IOU), False, TOP_K, 2, 1, 0, False, False)


def main(argv):
    relay, model = argv[1], argv[2]
    params = inputs()
    got, failure = run_model(relay, model, params)
    if got is None:
        print(failure)
        return 1
    want = reference(params)
    kept = int((want[0, :, 0] >= 0).sum())
    ok = got.shape == want.shape and np.array_equal(got[..., 0], want[..., 0]) and \
        np.allclose(got, want, rtol=1e-4, atol=1e-4)
    print("detections kept: %d of %d (reference %d)" % (int((got[0, :, 0] >= 0).sum()), want.shape[1], kept))
    if not ok:
        rows = np.nonzero(~np.isclose(got, want, rtol=1e-4, atol=1e-4).all(-1))[1] if got.shape == want.shape else []
        print("mismatch in rows", list(rows)[:10])
        for i in list(rows)[:3]:
            print("  row", i, "got", got[0, i], "want", want[0, i])
        return 1
    # the check means something only if some boxes survive and some are suppressed
    if not 0 < kept < TOP_K:
        print("degenerate detections (%d kept): change the seed" % kept)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
