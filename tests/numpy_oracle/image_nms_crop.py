import heapq

import numpy as np

f32 = np.float32


def show(name, a, digits=4):
    a = np.asarray(a)
    if a.dtype.kind == "f":
        print(name, a.shape, [float("%.*f" % (digits, v)) + 0.0 for v in a.astype(np.float64).ravel()])
    else:
        print(name, a.shape, a.ravel().tolist())


def iou(b, i, j):
    # The NonMaxSuppression kernel's IOU(), in float32.
    ymin_i, xmin_i = min(b[i, 0], b[i, 2]), min(b[i, 1], b[i, 3])
    ymax_i, xmax_i = max(b[i, 0], b[i, 2]), max(b[i, 1], b[i, 3])
    ymin_j, xmin_j = min(b[j, 0], b[j, 2]), min(b[j, 1], b[j, 3])
    ymax_j, xmax_j = max(b[j, 0], b[j, 2]), max(b[j, 1], b[j, 3])
    area_i = (ymax_i - ymin_i) * (xmax_i - xmin_i)
    area_j = (ymax_j - ymin_j) * (xmax_j - xmin_j)
    if area_i <= 0 or area_j <= 0:
        return f32(0)
    inter = max(min(ymax_i, ymax_j) - max(ymin_i, ymin_j), f32(0)) * max(min(xmax_i, xmax_j) - max(xmin_i, xmin_j),
                                                                         f32(0))
    return inter / (area_i + area_j - inter)


def nms(sim, scores, max_out, threshold, score_threshold=-np.inf, sigma=0.0):
    # DoNonMaxSuppressionOp: best score first (ties: lower index), soft
    # suppression re-queues a candidate with its decayed score.
    threshold, score_threshold = f32(threshold), f32(score_threshold)
    queue = [(-scores[i], i, 0) for i in range(len(scores)) if scores[i] > score_threshold]
    heapq.heapify(queue)
    soft = sigma > 0
    scale = f32(-0.5) / f32(sigma) if soft else f32(0)
    selected, selected_scores = [], []
    while len(selected) < max_out and queue:
        neg, i, begin = heapq.heappop(queue)
        score = original = -neg
        hard = False
        for j in range(len(selected) - 1, begin - 1, -1):
            s = sim(i, selected[j])
            score = f32(score * np.exp(scale * s * s))
            if not soft and s > threshold:
                hard = True
                break
            if score <= score_threshold:
                break
        if not hard:
            if score == original:
                selected.append(i)
                selected_scores.append(score)
                continue
            if score > score_threshold:
                heapq.heappush(queue, (-score, i, len(selected)))
    return np.array(selected, np.int32), np.array(selected_scores, np.float32)


rng = np.random.RandomState(7)
centers = rng.uniform(0, 1, size=(40, 2)).astype(np.float32)
sizes = rng.uniform(0.05, 0.3, size=(40, 2)).astype(np.float32)
boxes = np.concatenate([centers - sizes / 2, centers + sizes / 2], axis=1).astype(np.float32)
boxes[::7] = boxes[::7][:, [2, 3, 0, 1]]
scores = rng.uniform(0, 1, size=(40,)).astype(np.float32)
scores[5] = scores[9]


def box_nms(b, s, *args, **kw):
    return nms(lambda i, j: iou(b, i, j), s, *args, **kw)


show("nms", box_nms(boxes, scores, 20, 0.5)[0])
show("nms iou 0.2", box_nms(boxes, scores, 40, 0.2)[0])
show("nms score 0.5", box_nms(boxes, scores, 40, 0.3, 0.5)[0])
show("nms max 0", np.zeros([0], np.int32))
idx, sc = box_nms(boxes, scores, 15, 0.4)
show("with scores idx", idx)
show("with scores", sc)
idx, sc = box_nms(boxes, scores, 30, 1.0, 0.1, sigma=0.5)
show("soft idx", idx)
show("soft scores", sc)
idx, _ = box_nms(boxes, scores, 25, 0.05)
show("padded", np.pad(idx, [0, 25 - len(idx)]))
show("padded valid", np.int32(len(idx)))
show("unpadded", box_nms(boxes, scores, 25, 0.3)[0])
rows = []
valid = []
for b, s in ((boxes, scores), (boxes[::-1], scores[::-1])):
    i, _ = box_nms(b, s, 9, 0.1)
    rows.append(np.pad(i, [0, 9 - len(i)]))
    valid.append(len(i))
show("batched padded", np.array(rows, np.int32))
show("batched valid", np.array(valid, np.int32))
overlaps = rng.uniform(0, 1, size=(12, 12)).astype(np.float32)
show("overlaps", nms(lambda i, j: overlaps[i, j], scores[:12], 8, 0.6)[0])


def combined(boxes, scores, per_class, total, iou_threshold=0.5, score_threshold=-np.inf, pad_per_class=False,
             clip=True):
    batch, n, q, _ = boxes.shape
    classes = scores.shape[2]
    per_batch = min(total, per_class * classes) if pad_per_class else total
    out = [np.zeros((batch, per_batch, 4), np.float32), np.zeros((batch, per_batch), np.float32),
           np.zeros((batch, per_batch), np.float32), np.zeros((batch,), np.int32)]
    for b in range(batch):
        found = []
        for c in range(classes):
            cb = boxes[b, :, c if q > 1 else 0]
            idx, _ = box_nms(cb, scores[b, :, c], min(per_class, n), iou_threshold, score_threshold)
            found += [(scores[b, i, c], cb[i], c) for i in idx]
        found.sort(key=lambda t: -t[0])
        found = found[:per_batch]
        for k, (sc, bx, c) in enumerate(found):
            out[0][b, k] = np.clip(bx, 0, 1) if clip else bx
            out[1][b, k] = sc
            out[2][b, k] = c
        out[3][b] = len(found)
    return out


cboxes = np.stack([boxes[:20].reshape(20, 1, 4), boxes[20:].reshape(20, 1, 4)])
cscores = rng.uniform(0, 1, size=(2, 20, 3)).astype(np.float32)
res = combined(cboxes, cscores, 4, 7, 0.2, 0.3)
show("combined boxes", res[0])
show("combined scores", res[1])
show("combined classes", res[2])
show("combined valid", res[3])
res = combined(cboxes, cscores, 3, 15, score_threshold=0.8)
show("padded combined", res[1])
show("padded combined valid", res[3])
per_class_boxes = np.tile(cboxes, [1, 1, 3, 1]) * np.array([1.0, 1.2, 0.8], np.float32)[None, None, :, None]
res = combined(per_class_boxes, cscores, 2, 20, pad_per_class=True, clip=False)
show("per-class boxes", res[0])
show("per-class classes", res[2])
show("per-class valid", res[3])
show("traced nms", box_nms(boxes, scores, 12, 0.35)[0])
idx, sc = box_nms(boxes, scores, 12, 0.5, sigma=0.3)
show("traced soft idx", idx)
show("traced soft scores", sc)


def positions(lo, hi, size, extent):
    if size > 1:
        scale = f32((hi - lo) * f32(extent - 1) / f32(size - 1))
        return [f32(lo * f32(extent - 1) + f32(k) * scale) for k in range(size)]
    return [f32(f32(0.5) * (lo + hi) * f32(extent - 1))]


def crop_and_resize(image, boxes, box_ind, crop, method="bilinear", extrapolation=0.0, grad_weights=None):
    image = image.astype(np.float32)
    _, height, width, depth = image.shape
    ch, cw = crop
    out = np.zeros((len(boxes), ch, cw, depth), np.float32)
    grad = np.zeros_like(image)
    for n, (y1, x1, y2, x2) in enumerate(boxes):
        b = box_ind[n]
        for y, in_y in enumerate(positions(y1, y2, ch, height)):
            for x, in_x in enumerate(positions(x1, x2, cw, width)):
                if in_y < 0 or in_y > height - 1 or in_x < 0 or in_x > width - 1:
                    out[n, y, x] = extrapolation
                    continue
                if method == "nearest":
                    out[n, y, x] = image[b, int(np.floor(in_y + f32(0.5))), int(np.floor(in_x + f32(0.5)))]
                    continue
                t, bt = int(np.floor(in_y)), int(np.ceil(in_y))
                l, r = int(np.floor(in_x)), int(np.ceil(in_x))
                yl, xl = f32(in_y - t), f32(in_x - l)
                tl, tr, bl, br = image[b, t, l], image[b, t, r], image[b, bt, l], image[b, bt, r]
                top = tl + (tr - tl) * xl
                bottom = bl + (br - bl) * xl
                out[n, y, x] = top + (bottom - top) * yl
                if grad_weights is not None:
                    g = grad_weights[n, y, x]
                    grad[b, t, l] += (1 - yl) * (1 - xl) * g
                    grad[b, t, r] += (1 - yl) * xl * g
                    grad[b, bt, l] += yl * (1 - xl) * g
                    grad[b, bt, r] += yl * xl * g
    return out, grad


image = rng.uniform(0, 255, size=(2, 7, 9, 3)).astype(np.float32)
crop_boxes = np.array([[0.0, 0.0, 1.0, 1.0], [0.1, 0.25, 0.7, 0.8], [0.9, 0.8, 0.2, 0.1],
                       [-0.3, 0.1, 1.2, 0.95], [0.4, 0.4, 0.4, 0.4]], np.float32)
box_ind = np.array([0, 1, 1, 0, 1], np.int32)
show("bilinear", crop_and_resize(image, crop_boxes, box_ind, [4, 5])[0], 3)
show("nearest", crop_and_resize(image, crop_boxes, box_ind, [3, 6], "nearest", -7.0)[0], 3)
show("one pixel", crop_and_resize(image, crop_boxes, box_ind, [1, 1])[0], 3)
show("uint8", crop_and_resize(image.astype(np.uint8), crop_boxes[:2], box_ind[:2], [2, 2])[0], 3)
weights = rng.uniform(-1, 1, size=(2, 4, 5, 3)).astype(np.float32)
_, grad = crop_and_resize(image, crop_boxes[:2], box_ind[:2], [4, 5], grad_weights=weights)
show("image grad", grad[1, :3, :4, 0], 4)
show("traced crop", crop_and_resize(image, crop_boxes[2:4], [1, 0], [3, 3], extrapolation=1.5)[0], 3)


DEFAULT_COLORS = [[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1],
                  [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]]


def draw(images, boxes, colors):
    # DrawBoundingBoxes, box by box.
    out = images.copy()
    _, height, width, depth = images.shape
    table = DEFAULT_COLORS if colors is None else colors
    for b in range(images.shape[0]):
        for n, (y1, x1, y2, x2) in enumerate(boxes[b]):
            c = np.array(table[n % len(table)], np.float32)[:depth]
            r0, r1 = int(f32(y1) * f32(height - 1)), int(f32(y2) * f32(height - 1))
            c0, c1 = int(f32(x1) * f32(width - 1)), int(f32(x2) * f32(width - 1))
            if r0 > r1 or c0 > c1 or r0 >= height or r1 < 0 or c0 >= width or c1 < 0:
                continue
            t, bt, l, r = max(r0, 0), min(r1, height - 1), max(c0, 0), min(c1, width - 1)
            if r0 >= 0:
                out[b, r0, l:r + 1] = c
            if r1 < height:
                out[b, r1, l:r + 1] = c
            if c0 >= 0:
                out[b, t:bt + 1, c0] = c
            if c1 < width:
                out[b, t:bt + 1, c1] = c
    return out


canvas = rng.uniform(0, 0.5, size=(2, 6, 7, 3)).astype(np.float32)
draw_boxes = np.array([[[0.0, 0.0, 0.5, 0.6], [0.25, 0.4, 1.2, 1.0], [0.6, 0.5, 0.1, 0.9]],
                       [[-0.5, -0.2, 0.7, 0.45], [0.3, 0.3, 0.3, 0.8], [1.5, 0.0, 2.0, 1.0]]], np.float32)
show("drawn default", draw(canvas, draw_boxes, None), 3)
show("drawn colors", draw(canvas[..., :1], draw_boxes, [[0.9, 0.1, 0.2, 1.0], [0.3, 0.4, 0.5, 1.0]]), 3)


def nearest(img, oh, ow):
    # TF2's nearest resize: source floor((dst + 0.5) * in / out).
    h, w = img.shape[-3], img.shape[-2]
    rows = [min(int(np.floor((i + 0.5) * h / oh)), h - 1) for i in range(oh)]
    cols = [min(int(np.floor((j + 0.5) * w / ow)), w - 1) for j in range(ow)]
    return img[..., rows, :, :][..., cols, :]


grid = np.arange(2 * 4 * 6 * 2).reshape(2, 4, 6, 2).astype(np.float32)
# 4x6 into 5x5: ratio 1.2, resized to 3x5, padded 0 above (floor(0.83)), 2 below.
show("resize_with_pad", np.pad(nearest(grid, 3, 5), [[0, 0], [0, 2], [0, 0], [0, 0]]))
# 4x6 into 9x4: ratio 1.5, resized to 2x4, padded floor(3.5) = 3 above, 4 below.
show("resize_with_pad tall", np.pad(nearest(grid[0], 2, 4), [[3, 4], [0, 0], [0, 0]]))

prefix = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} %s [Op:%s] name: "
print(prefix % ("NonMaxSuppressionV3", "iou_threshold must be in [0, 1]", "NonMaxSuppressionV3"))
print(prefix % ("NonMaxSuppressionV3", "boxes must have 4 columns (Dimension must be 4 but is 3)",
                "NonMaxSuppressionV3"))
print(prefix % ("NonMaxSuppressionV3", "scores has incompatible shape (Dimensions must be equal, but are 40 and 10)",
                "NonMaxSuppressionV3"))
print(prefix % ("CropAndResize", "box_index has values outside [0, batch_size)", "CropAndResize"))
print(prefix % ("CropAndResize", "crop dimensions must be positive", "CropAndResize"))
print(prefix % ("CropAndResize", "method must be 'bilinear' or 'nearest'", "CropAndResize"))
print("'pad_to_max_output_size' (value False) must be True for batched input")
