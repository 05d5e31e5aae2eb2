"""Golden data for §3.8 vision.*: SSD's multibox_prior, multibox_transform_loc,
get_valid_counts and non_max_suppression (both return forms, top_k, max_output_size,
force_suppress, invalid_to_bottom), all_class_non_max_suppression (onnx and tensorflow
formats), regular_non_max_suppression, proposal, roi_align (avg/max, sample_ratio, NCHW/NHWC),
roi_pool and yolo_reorg. The references restate TOPI 0.14 (topi/vision/ssd/multibox.py,
nms.py, rcnn/roi_align.py, rcnn/roi_pool.py, include/tvm/topi/vision/reorg.h) in numpy,
in float32; rows TOPI leaves unwritten (multibox_transform_loc after valid_count) are -1."""
import math

import numpy as np

from families.common import Case, op_case, program, rng

F = np.float32


def fl(v):
    return "[%s]" % ", ".join("%sf" % repr(float(x)) for x in v)


def prior_ref(h, w, sizes, ratios, steps, offsets, clip):
    sh = F(steps[0]) if steps[0] > 0 else F(1) / F(h)
    sw = F(steps[1]) if steps[1] > 0 else F(1) / F(w)
    out = []
    for i in range(h):
        cy = (F(i) + F(offsets[0])) * sh
        for j in range(w):
            cx = (F(j) + F(offsets[1])) * sw
            for k in range(len(sizes) + len(ratios) - 1):
                if k < len(sizes):
                    bw = F(sizes[k]) * F(h) / F(w) / F(2)
                    bh = F(sizes[k]) / F(2)
                else:
                    r = np.sqrt(F(ratios[k - len(sizes) + 1]))
                    bw = F(sizes[0]) * F(h) / F(w) * r / F(2)
                    bh = F(sizes[0]) / r / F(2)
                out.append([cx - bw, cy - bh, cx + bw, cy + bh])
    a = np.array(out, F).reshape(1, -1, 4)
    return np.clip(a, 0, 1) if clip else a


def prior_case(name, shape, sizes, ratios, steps=(-1.0, -1.0), offsets=(0.5, 0.5), clip=False):
    x = rng(name).standard_normal(shape).astype("float32")
    y = prior_ref(shape[2], shape[3], sizes, ratios, steps, offsets, clip)
    a = "sizes=%s, ratios=%s, steps=%s, offsets=%s, clip=%s" % (fl(sizes), fl(ratios), fl(steps), fl(offsets), clip)
    return op_case(name, "vision.multibox_prior", [x], y, a)


def transform_ref(cls, loc, anchor, clip, threshold, var, keep_bg):
    B, C, A = cls.shape
    out = np.full((B, A, 6), -1, F)
    count = np.zeros(B, np.int32)
    var = [F(v) for v in var]
    for b in range(B):
        n = 0
        for j in range(A):
            score, cid = F(-1), 0
            for k in range(0 if keep_bg else 1, C):
                if cls[b, k, j] > score:
                    cid = k
                score = max(cls[b, k, j], score)
            if cid > 0 and score < F(threshold):
                cid = 0
            if not (keep_bg or cid > 0):
                continue
            al, at, ar, ab = anchor[0, j]
            px, py, pw, ph = loc[b, j * 4:j * 4 + 4]
            aw, ah = ar - al, ab - at
            ax, ay = (al + ar) / F(2), (at + ab) / F(2)
            ox, oy = px * var[0] * aw + ax, py * var[1] * ah + ay
            ow, oh = np.exp(pw * var[2]) * aw / F(2), np.exp(ph * var[3]) * ah / F(2)
            box = [ox - ow, oy - oh, ox + ow, oy + oh]
            if clip:
                box = [max(F(0), min(F(1), v)) for v in box]
            out[b, n] = [cid if keep_bg else cid - 1, score] + box
            n += 1
        count[b] = n
    return out, count


def transform_case(name, B, C, A, clip=True, threshold=0.01, var=(0.1, 0.1, 0.2, 0.2), keep_bg=False):
    g = rng(name)
    logits = g.standard_normal((B, C, A)).astype(F) * 2
    cls = (np.exp(logits) / np.exp(logits).sum(1, keepdims=True)).astype(F)
    loc = (g.standard_normal((B, A * 4)) * 0.5).astype(F)
    c = g.uniform(0.1, 0.9, (1, A, 2)).astype(F)
    s = g.uniform(0.05, 0.4, (1, A, 2)).astype(F)
    anchor = np.concatenate([c - s, c + s], axis=2).astype(F)
    out, count = transform_ref(cls, loc, anchor, clip, threshold, var, keep_bg)
    a = "clip=%s, threshold=%sf, variances=%s, keep_background=%s" % (clip, repr(float(threshold)), fl(var), keep_bg)
    return op_case(name, "vision.multibox_transform_loc", [cls, loc, anchor], [out, count], a, tuple=True)


def valid_counts_ref(data, thr, id_index, score_index):
    B, N, K = data.shape
    count = np.zeros(B, np.int32)
    out = np.full(data.shape, -1, data.dtype)
    idx = np.full((B, N), -1, np.int32)
    for b in range(B):
        n = 0
        for j in range(N):
            if data[b, j, score_index] > thr and (id_index < 0 or data[b, j, id_index] >= 0):
                out[b, n] = data[b, j]
                idx[b, n] = j
                n += 1
        count[b] = n
    return count, out, idx


def detections(g, B, N, classes=3):
    """(B, N, 6) rows [class id, score, x1, y1, x2, y2], some with id -1 or low scores."""
    ids = g.integers(-1, classes, (B, N)).astype(F)
    scores = g.uniform(0.0, 1.0, (B, N)).astype(F)
    xy = g.uniform(0.0, 0.7, (B, N, 2)).astype(F)
    wh = g.uniform(0.1, 0.4, (B, N, 2)).astype(F)
    boxes = np.concatenate([xy, xy + wh], axis=2)
    boxes[:, ::3] = boxes[:, ::3][..., [2, 3, 0, 1]]  # corners in either order
    return np.concatenate([ids[..., None], scores[..., None], boxes], axis=2).astype(F)


def valid_counts_case(name, B, N, thr, id_index=0, score_index=1, spelled=True):
    data = detections(rng(name), B, N)
    y = list(valid_counts_ref(data, F(thr), id_index, score_index))
    a = "id_index=%d, score_index=%d" % (id_index, score_index)
    if spelled:
        a = "score_threshold=None, " + a
    body = "vision.get_valid_counts(%%x0, %sf, %s)" % (repr(float(thr)), a)
    return Case(name, program([data], body), [data], y, tuple=True)


def corners(r):
    return min(r[0], r[2]), min(r[1], r[3]), max(r[0], r[2]), max(r[1], r[3])


def iou(a, b):
    w = max(F(0), min(a[2], b[2]) - max(a[0], b[0]))
    h = max(F(0), min(a[3], b[3]) - max(a[1], b[1]))
    area = h * w
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - area
    return F(0) if u <= 0 else area / u


def nms_ref(data, valid, indices, max_out, thr, force, top_k, coord, score_index, id_index, ret_idx, to_bottom):
    B, N, K = data.shape
    out = np.full(data.shape, -1, data.dtype)
    bidx = np.full((B, N), -1, np.int64)
    for b in range(B):
        v = int(valid[b])
        if thr > 0:
            order = sorted(range(v), key=lambda j: -data[b, j, score_index])  # stable
            keep = top_k if 0 < top_k < v else v
            for j in range(keep):
                out[b, j] = data[b, order[j]]
                bidx[b, j] = order[j]
            kept = 0
            for j in range(v):
                if kept == max_out:
                    out[b, j] = -1
                    bidx[b, j] = -1
                    continue
                if not out[b, j, score_index] > 0:
                    continue
                a = corners(out[b, j, coord:coord + 4])
                ok = True
                for k in range(j):
                    o = out[b, k]
                    if not ok or not o[score_index] > 0 or (id_index >= 0 and o[id_index] < 0):
                        continue
                    if not force and id_index >= 0 and out[b, j, id_index] != o[id_index]:
                        continue
                    if iou(a, corners(o[coord:coord + 4])) >= F(thr):
                        ok = False
                if ok:
                    kept += 1
                else:
                    out[b, j] = -1
                    bidx[b, j] = -1
        else:
            out[b, :v] = data[b, :v]
            bidx[b, :v] = np.arange(v)
        if ret_idx:
            for j in range(v):
                if bidx[b, j] >= 0:
                    bidx[b, j] = indices[b, bidx[b, j]]
    if ret_idx:
        res = np.full((B, N), -1, np.int32)
        cnt = np.zeros((B, 1), np.int32)
        for b in range(B):
            kept = [x for x in bidx[b] if x >= 0]
            res[b, :len(kept)] = kept
            cnt[b, 0] = len(kept)
        return [res, cnt]
    if to_bottom:
        moved = np.full(out.shape, -1, out.dtype)
        for b in range(B):
            rows = [r for r in out[b] if r[0] >= 0]
            if rows:
                moved[b, :len(rows)] = rows
        return moved
    return out


def nms_case(name, B, N, max_out=-1, thr=0.5, force=False, top_k=-1, ret_idx=True, to_bottom=False, id_index=0,
             through_valid_counts=True):
    g = rng(name)
    data = detections(g, B, N)
    data[:, 1::2, 2:] = data[:, 0::2, 2:][:, :data[:, 1::2].shape[1]] + F(0.02)  # overlapping pairs
    if through_valid_counts:
        valid, vdata, indices = valid_counts_ref(data, F(0.1), id_index, 1)
    else:
        valid = np.full(B, N, np.int32)
        vdata, indices = data, np.tile(np.arange(N, dtype=np.int32), (B, 1))
    y = nms_ref(vdata, valid, indices, max_out, F(thr), force, top_k, 2, 1, id_index, ret_idx, to_bottom)
    a = ("force_suppress=%s, top_k=%d, coord_start=2, score_index=1, id_index=%d, return_indices=%s, "
         "invalid_to_bottom=%s" % (force, top_k, id_index, ret_idx, to_bottom))
    if through_valid_counts:
        body = ("%%0 = vision.get_valid_counts(%%x0, 0.1f, score_threshold=None, id_index=%d, score_index=1);\n"
                "  vision.non_max_suppression(%%0.1, %%0.0, %%0.2, %d, %sf, %s)" % (id_index, max_out, repr(float(thr)), a))
        return Case(name, program([data], body), [data], y, tuple=ret_idx)
    body = "vision.non_max_suppression(%%x0, %%x1, %%x2, %d, %sf, %s)" % (max_out, repr(float(thr)), a)
    return Case(name, program([vdata, valid, indices], body), [vdata, valid, indices], y, tuple=ret_idx)


def bilinear(img, y, x, H, W):
    if y < -1.0 or x < -1.0 or y > H or x > W:
        return F(0)
    y = min(max(y, F(0)), F(H - 1))
    x = min(max(x, F(0)), F(W - 1))
    y0, x0 = int(np.floor(y)), int(np.floor(x))
    wy1, wx1 = y - F(y0), x - F(x0)
    v = F(0)
    for xp, wx in ((x0, F(1) - wx1), (x0 + 1, wx1)):
        for yp, wy in ((y0, F(1) - wy1), (y0 + 1, wy1)):
            if 0 <= yp <= H - 1 and 0 <= xp <= W - 1:
                v = v + wx * wy * img[yp, xp]
    return v


def roi_align_ref(x, rois, ph_, pw_, scale, ratio, mode):
    N, C, H, W = x.shape
    out = np.zeros((len(rois), C, ph_, pw_), F)
    scale = F(scale)
    for r, roi in enumerate(rois):
        n = int(roi[0])
        sw, sh, ew, eh = [F(v) * scale for v in roi[1:]]
        rh, rw = max(eh - sh, F(1)), max(ew - sw, F(1))
        bh, bw = rh / F(ph_), rw / F(pw_)
        gh = ratio if ratio > 0 else int(math.ceil(rh / F(ph_)))
        gw = ratio if ratio > 0 else int(math.ceil(rw / F(pw_)))
        cnt = F(gh * gw)
        for c in range(C):
            for p in range(ph_):
                for q in range(pw_):
                    y0, x0 = sh + F(p) * bh, sw + F(q) * bw
                    acc = F(0) if mode == "avg" else F(-np.inf)
                    for iy in range(gh):
                        for ix in range(gw):
                            y = y0 + (F(iy) + F(0.5)) * bh / F(gh)
                            xx = x0 + (F(ix) + F(0.5)) * bw / F(gw)
                            v = bilinear(x[n, c], y, xx, H, W)
                            acc = acc + v / cnt if mode == "avg" else max(acc, v)
                    out[r, c, p, q] = acc
    return out


def rois_for(g, R, N, extent):
    b = g.integers(0, N, R).astype(F)
    xy = g.uniform(-2, extent * 0.7, (R, 2)).astype(F)
    wh = g.uniform(0.5, extent * 0.6, (R, 2)).astype(F)
    return np.concatenate([b[:, None], xy, xy + wh], axis=1).astype(F)


def roi_align_case(name, layout, pooled, scale, ratio, mode):
    g = rng(name)
    x = g.standard_normal((2, 3, 7, 8)).astype(F)
    rois = rois_for(g, 4, 2, 8 / scale)
    y = roi_align_ref(x, rois, pooled[0], pooled[1], scale, ratio, mode)
    if layout == "NHWC":
        x, y = x.transpose(0, 2, 3, 1).copy(), y.transpose(0, 2, 3, 1).copy()
    a = "pooled_size=[%d, %d], spatial_scale=%sf, sample_ratio=%d, layout=\"%s\", mode=\"%s\"" % (
        pooled[0], pooled[1], repr(float(scale)), ratio, layout, mode)
    return op_case(name, "vision.roi_align", [x, rois], y, a, rtol=1e-4, atol=1e-5)


def round_away(v):
    return int(math.floor(v + 0.5)) if v >= 0 else -int(math.floor(-v + 0.5))


def roi_pool_ref(x, rois, ph_, pw_, scale):
    N, C, H, W = x.shape
    out = np.zeros((len(rois), C, ph_, pw_), x.dtype)
    scale = F(scale)
    eps = F(1e-5)
    for r, roi in enumerate(rois):
        n = int(roi[0])
        sw, sh, ew, eh = [round_away(F(v) * scale) for v in roi[1:]]
        bh = F(max(eh - sh + 1, 1)) / F(ph_)
        bw = F(max(ew - sw + 1, 1)) / F(pw_)
        for p in range(ph_):
            for q in range(pw_):
                hs = min(max(int(np.floor(F(p) * bh + eps)) + sh, 0), H)
                ws = min(max(int(np.floor(F(q) * bw + eps)) + sw, 0), W)
                he = min(max(int(np.ceil(F(p + 1) * bh - eps)) + sh, 0), H)
                we = min(max(int(np.ceil(F(q + 1) * bw - eps)) + sw, 0), W)
                if hs < he and ws < we:
                    out[r, :, p, q] = x[n, :, hs:he, ws:we].max(axis=(1, 2))
    return out


def roi_pool_case(name, layout, pooled, scale):
    g = rng(name)
    x = g.standard_normal((2, 3, 7, 8)).astype(F)
    rois = rois_for(g, 5, 2, 8 / scale)
    y = roi_pool_ref(x, rois, pooled[0], pooled[1], scale)
    if layout == "NHWC":
        x, y = x.transpose(0, 2, 3, 1).copy(), y.transpose(0, 2, 3, 1).copy()
    a = "pooled_size=[%d, %d], spatial_scale=%sf, layout=\"%s\"" % (pooled[0], pooled[1], repr(float(scale)), layout)
    return op_case(name, "vision.roi_pool", [x, rois], y, a)


def reorg_ref(x, s):
    N, C, H, W = x.shape
    out_c = C // (s * s)
    flat = x.reshape(-1)
    y = np.zeros(x.shape, x.dtype)
    for b in range(N):
        for k in range(C):
            q = k // out_c
            for j in range(H):
                for i in range(W):
                    c2, h2, w2 = (k % out_c) * s * s, (j * s + q // s) * s, i * s + q % s
                    y[b, k, j, i] = flat[b * C * H * W + (c2 * H + h2) * W + w2]
    return y.reshape(N, C * s * s, H // s, W // s)


def cases():
    out = [
        prior_case("prior_default", (1, 3, 4, 5), [1.0], [1.0]),
        prior_case("prior_sizes_ratios", (2, 1, 3, 4), [0.3, 0.15], [1.0, 2.0, 0.5]),
        prior_case("prior_steps_offsets_clip", (1, 2, 3, 3), [0.9, 0.5], [1.0, 3.0], (0.2, 0.25), (0.3, 0.6), True),
        transform_case("transform_default", 2, 4, 6),
        transform_case("transform_keep_bg_noclip", 1, 3, 8, clip=False, keep_bg=True),
        transform_case("transform_threshold", 2, 3, 7, threshold=0.45, var=(0.2, 0.1, 0.3, 0.25)),
        valid_counts_case("valid_counts", 2, 7, 0.3),
        valid_counts_case("valid_counts_no_id", 1, 6, 0.5, id_index=-1, spelled=False),
        nms_case("nms_indices", 2, 10),
        nms_case("nms_boxes", 2, 10, ret_idx=False),
        nms_case("nms_boxes_to_bottom", 2, 10, ret_idx=False, to_bottom=True),
        nms_case("nms_force_topk", 1, 12, force=True, top_k=4, ret_idx=False),
        nms_case("nms_max_output", 2, 12, max_out=2, thr=0.3),
        nms_case("nms_no_threshold", 1, 8, thr=0.0, ret_idx=False),
        nms_case("nms_no_id", 1, 9, id_index=-1, ret_idx=False, through_valid_counts=False),
        nms_case("nms_direct_indices", 2, 8, force=True, through_valid_counts=False),
        roi_align_case("roi_align_avg", "NCHW", (2, 3), 1.0, -1, "avg"),
        roi_align_case("roi_align_avg_ratio", "NCHW", (3, 3), 0.5, 2, "avg"),
        roi_align_case("roi_align_max", "NCHW", (2, 2), 0.25, 2, "max"),
        roi_align_case("roi_align_nhwc", "NHWC", (3, 2), 1.0, -1, "avg"),
        roi_pool_case("roi_pool", "NCHW", (2, 3), 1.0),
        roi_pool_case("roi_pool_scaled", "NCHW", (3, 3), 0.5),
        roi_pool_case("roi_pool_nhwc", "NHWC", (2, 2), 0.25),
    ]
    for s, shape in ((2, (1, 8, 4, 6)), (2, (2, 4, 2, 2)), (1, (1, 3, 2, 2))):
        x = rng("reorg%d" % s).standard_normal(shape).astype(F)
        out.append(op_case("yolo_reorg_s%d_n%d" % (s, shape[0]), "vision.yolo_reorg", [x], reorg_ref(x, s),
                           "stride=%d" % s))
    return out + class_cases() + proposal_cases()


# --- all_class_non_max_suppression (nms.py + nms_util.py) and regular (hybrid_regular_nms) ---

def all_class_ref(boxes, scores, max_out, iou_thr, score_thr, fmt):
    B, C, N = scores.shape
    sel = []
    for b in range(B):
        for c in range(C):
            row = scores[b, c]
            order = sorted(range(N), key=lambda j: -row[j])  # stable
            s = [row[j] for j in order]
            valid = 0
            while valid < N and s[valid] > F(score_thr):
                valid += 1
            picked = []
            if iou_thr > 0 and valid > 0:
                limit = max_out if max_out > 0 else valid
                for j in range(valid):
                    if len(picked) >= limit:
                        break
                    if not s[j] > -1:
                        continue
                    picked.append((order[j], s[j]))
                    for k in range(j + 1, valid):
                        if s[k] > 0 and iou(corners(boxes[b, order[j]]), corners(boxes[b, order[k]])) >= F(iou_thr):
                            s[k] = F(-1)
            sel.append(picked)
    if fmt == "onnx":
        out = np.zeros((B * C * N, 3), np.int64)
        rows = [(bc // C, bc % C, i) for bc, p in enumerate(sel) for i, _ in p]
        if rows:
            out[:len(rows)] = rows
        return [out, np.array([len(rows)], np.int64)]
    idx = np.zeros((B, C * N, 2), np.int64)
    sc = np.zeros((B, C * N), F)
    tot = np.zeros(B, np.int64)
    for b in range(B):
        r = 0
        for c in range(C):
            for i, v in sel[b * C + c]:
                idx[b, r] = (c, i)
                sc[b, r] = v
                r += 1
        tot[b] = r
    return [idx, sc, tot]


def all_class_case(name, B, C, N, max_out, iou_thr, score_thr, fmt):
    g = rng(name)
    xy = g.uniform(0, 0.6, (B, N, 2)).astype(F)
    boxes = np.concatenate([xy, xy + g.uniform(0.1, 0.4, (B, N, 2)).astype(F)], 2).astype(F)
    boxes[:, 1::2] = boxes[:, 0::2][:, :boxes[:, 1::2].shape[1]] + F(0.03)
    scores = g.uniform(0, 1, (B, C, N)).astype(F)
    scores[..., 2] = scores[..., 3]  # a tie
    y = all_class_ref(boxes, scores, max_out, iou_thr, score_thr, fmt)
    body = "vision.all_class_non_max_suppression(%%x0, %%x1, %di64, %sf, %sf, output_format=\"%s\")" % (
        max_out, repr(float(iou_thr)), repr(float(score_thr)), fmt)
    return Case(name, program([boxes, scores], body), [boxes, scores], y, tuple=True)


def regular_ref(boxes, scores, per_class, max_det, num_classes, iou_thr, score_thr):
    B, N, CB = scores.shape
    off = CB - num_classes
    ob = np.zeros((B, max_det, 4), F)
    oc = np.zeros((B, max_det), F)
    os_ = np.zeros((B, max_det), F)
    cnt = np.zeros(B, np.int32)

    def r_iou(i, j):
        ai = (i[2] - i[0]) * (i[3] - i[1])
        aj = (j[2] - j[0]) * (j[3] - j[1])
        if not (ai > 0 and aj > 0):
            return F(0)
        inter = max(min(i[2], j[2]) - max(i[0], j[0]), F(0)) * max(min(i[3], j[3]) - max(i[1], j[1]), F(0))
        return inter / (ai + aj - inter)
    for b in range(B):
        kept = []
        for c in range(num_classes):
            col = scores[b, :, c + off]
            cand = sorted([i for i in range(N) if col[i] >= F(score_thr)], key=lambda i: -col[i])
            active = [True] * len(cand)
            limit = min(len(cand), per_class)
            n = 0
            for i in range(len(cand)):
                if not active[i] or n >= limit:
                    continue
                active[i] = False
                kept.append((cand[i], c, col[cand[i]]))
                n += 1
                for j in range(i + 1, len(cand)):
                    if active[j] and r_iou(boxes[b, cand[i]], boxes[b, cand[j]]) > F(iou_thr):
                        active[j] = False
            kept = sorted(kept, key=lambda t: -t[2])[:max_det]
        for k, (a, c, s) in enumerate(kept):
            ob[b, k] = boxes[b, a]
            oc[b, k] = c
            os_[b, k] = s
        cnt[b] = len(kept)
    return [ob, oc, os_, cnt]


def regular_case(name, B, N, CB, per_class, max_det, num_classes, iou_thr, score_thr):
    g = rng(name)
    yx = g.uniform(0, 0.6, (B, N, 2)).astype(F)
    boxes = np.concatenate([yx, yx + g.uniform(0.1, 0.4, (B, N, 2)).astype(F)], 2).astype(F)
    boxes[:, 1::2] = boxes[:, 0::2][:, :boxes[:, 1::2].shape[1]] + F(0.02)
    scores = g.uniform(0, 1, (B, N, CB)).astype(F)
    y = regular_ref(boxes, scores, per_class, max_det, num_classes, iou_thr, score_thr)
    a = ("max_detections_per_class=%d, max_detections=%d, num_classes=%d, iou_threshold=%sf, score_threshold=%sf"
         % (per_class, max_det, num_classes, repr(float(iou_thr)), repr(float(score_thr))))
    body = "vision.regular_non_max_suppression(%%x0, %%x1, %s)" % a
    return Case(name, program([boxes, scores], body), [boxes, scores], y, tuple=True)


def class_cases():
    return [
        all_class_case("all_class_onnx", 2, 3, 8, 3, 0.5, 0.2, "onnx"),
        all_class_case("all_class_onnx_unlimited", 1, 2, 10, 0, 0.3, 0.0, "onnx"),
        all_class_case("all_class_tf", 2, 2, 9, 4, 0.45, 0.1, "tensorflow"),
        all_class_case("all_class_zero_iou", 1, 2, 5, 3, 0.0, 0.1, "tensorflow"),
        regular_case("regular_nms", 2, 10, 4, 3, 5, 3, 0.5, 0.2),
        regular_case("regular_nms_small_max", 1, 12, 3, 4, 3, 2, 0.3, 0.1),
    ]


# --- proposal (rcnn/proposal.py) ---

def proposal_ref(cls, delta, info, scales, ratios, stride, thr, pre, post, min_size, iou_loss):
    B, A2, H, W = cls.shape
    A = A2 // 2
    N = H * W * A
    pre = min(pre, N) if pre > 0 else N
    out = np.zeros((B * post, 5), F)
    for b in range(B):
        boxes = []
        for h in range(H):
            for w in range(W):
                for k in range(A):
                    ratio, scale = ratios[k // len(scales)], scales[k % len(scales)]
                    base = float(stride)
                    xc = yc = 0.5 * (base - 1.0)
                    nw = math.floor(math.sqrt(math.floor(base * base / ratio)) + 0.5) * scale
                    nh = math.floor(nw / scale * ratio + 0.5) * scale
                    an = [F(xc - 0.5 * (nw - 1)), F(yc - 0.5 * (nh - 1)), F(xc + 0.5 * (nw - 1)), F(yc + 0.5 * (nh - 1))]
                    x1, y1 = an[0] + F(w) * F(stride), an[1] + F(h) * F(stride)
                    x2, y2 = an[2] + F(w) * F(stride), an[3] + F(h) * F(stride)
                    d = [delta[b, k * 4 + i, h, w] for i in range(4)]
                    if iou_loss:
                        p = [x1 + d[0], y1 + d[1], x2 + d[2], y2 + d[3]]
                    else:
                        bw, bh = x2 - x1 + F(1), y2 - y1 + F(1)
                        cx, cy = x1 + F(0.5) * (bw - F(1)), y1 + F(0.5) * (bh - F(1))
                        pcx, pcy = d[0] * bw + cx, d[1] * bh + cy
                        pw, ph = np.exp(d[2]) * bw, np.exp(d[3]) * bh
                        p = [pcx - F(0.5) * (pw - F(1)), pcy - F(0.5) * (ph - F(1)),
                             pcx + F(0.5) * (pw - F(1)), pcy + F(0.5) * (ph - F(1))]
                    imh, imw = info[b, 0], info[b, 1]
                    p = [max(min(p[0], imw - F(1)), F(0)), max(min(p[1], imh - F(1)), F(0)),
                         max(min(p[2], imw - F(1)), F(0)), max(min(p[3], imh - F(1)), F(0))]
                    ms = info[b, 2] * F(min_size)
                    s = cls[b, A + k, h, w]
                    if h >= int(imh / F(stride)) or w >= int(imw / F(stride)):
                        s = F(-1)
                    if p[2] - p[0] + F(1) < ms or p[3] - p[1] + F(1) < ms:
                        p = [p[0] - ms / F(2), p[1] - ms / F(2), p[2] + ms / F(2), p[3] + ms / F(2)]
                        s = F(-1)
                    boxes.append(p + [s])
        order = sorted(range(N), key=lambda i: -boxes[i][4])[:pre]
        removed = [False] * len(order)

        def ov(a, c):
            ww = max(F(0), min(a[2], c[2]) - max(a[0], c[0]) + F(1))
            hh = max(F(0), min(a[3], c[3]) - max(a[1], c[1]) + F(1))
            i = ww * hh
            return i / ((a[2] - a[0] + F(1)) * (a[3] - a[1] + F(1)) + (c[2] - c[0] + F(1)) * (c[3] - c[1] + F(1)) - i)
        for l in range(len(order) - 1):
            if not removed[l]:
                for i in range(l + 1, len(order)):
                    if ov(boxes[order[l]], boxes[order[i]]) > F(thr):
                        removed[i] = True
        kept = [order[j] for j in range(len(order)) if not removed[j]]
        for i in range(post if kept else 0):
            out[b * post + i] = [b] + boxes[kept[i % len(kept)]][:4]
    return out


def proposal_case(name, H, W, scales, ratios, stride, thr, pre, post, min_size, iou_loss=False):
    g = rng(name)
    A = len(scales) * len(ratios)
    cls = g.uniform(0, 1, (1, 2 * A, H, W)).astype(F)
    delta = (g.standard_normal((1, 4 * A, H, W)) * (2.0 if iou_loss else 0.2)).astype(F)
    info = np.array([[H * stride - stride // 2, W * stride, 1.0]], F)
    y = proposal_ref(cls, delta, info, scales, ratios, stride, thr, pre, post, min_size, iou_loss)
    a = ("scales=%s, ratios=%s, feature_stride=%d, threshold=%sf, rpn_pre_nms_top_n=%d, rpn_post_nms_top_n=%d, "
         "rpn_min_size=%d, iou_loss=%s" % (fl(scales), fl(ratios), stride, repr(float(thr)), pre, post, min_size, iou_loss))
    return op_case(name, "vision.proposal", [cls, delta, info], y, a, rtol=1e-4, atol=1e-3)


def proposal_cases():
    return [
        proposal_case("proposal", 4, 5, [2.0, 4.0], [0.5, 1.0, 2.0], 8, 0.7, 50, 20, 4),
        proposal_case("proposal_iou_loss_cycle", 3, 3, [2.0], [1.0, 2.0], 4, 0.5, -1, 30, 2, iou_loss=True),
    ]
