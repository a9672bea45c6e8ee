# Oracle for ../image_color_ops.tfs (run with /usr/bin/python3; its stdout
# is image_color_ops.expected): Python's colorsys for the HSV conversions
# and hue / saturation changes, numpy for contrast (per-channel mean over
# height and width), gamma, brightness and grayscale; values rounded to 4
# places. The error texts are TF's kernel messages.
import colorsys

import numpy as np

px = np.array([[0.9, 0.2, 0.1], [0.3, 0.8, 0.4], [0.2, 0.3, 0.7], [0.5, 0.5, 0.5],
               [0.6, 0.1, 0.6], [0.0, 0.0, 0.0]], np.float32)
img = px.reshape(2, 3, 3).astype(np.float64)


def show(label, a, places=4):
    print(label, (np.round(np.asarray(a, np.float64), places) + 0.0).tolist())


def per_pixel(a, f):
    out = np.array([f(*p) for p in a.reshape(-1, 3)])
    return out.reshape(a.shape)


def contrast(a, f):
    m = a.mean(axis=(-3, -2), keepdims=True)
    return (a - m) * f + m


def saturate(a, k):
    def f(r, g, b):
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        return colorsys.hsv_to_rgb(h, min(1.0, max(0.0, s * k)), v)
    return per_pixel(a, f)


def hue(a, d):
    def f(r, g, b):
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        return colorsys.hsv_to_rgb((h + d) % 1.0, s, v)
    return per_pixel(a, f)


def tensor_text(a, dtype):
    text = np.array2string(a)
    if "\n" in text:
        text = "\n" + text
    return "tf.Tensor(%s, shape=%s, dtype=%s)" % (text, str(a.shape), dtype)


def err(op, msg):
    return ("InvalidArgumentError: {{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}}"
            " %s [Op:%s] name: " % (op, msg, op))


show("contrast", contrast(img, 2.0))
show("contrast_batch", contrast(np.stack([img, img * 0.5]), 0.5))
show("saturation", saturate(img, 0.5))
show("saturation_up", saturate(img, 3.0))
show("hue", hue(img, 0.2))
show("hue_neg", hue(img, -0.7))
show("gamma", 1.5 * img ** 2)
show("brightness", img + 0.1)
show("hsv", per_pixel(img, colorsys.rgb_to_hsv))
show("round_trip", img)
show("hsv64", per_pixel(img, colorsys.rgb_to_hsv))
gray = (img * np.array([0.2989, 0.5870, 0.1140])).sum(-1, keepdims=True)
show("gray_rgb", np.repeat(gray, 3, -1), 3)
u8 = np.array([[[200, 40, 10], [10, 100, 250]]], np.float32) * np.float32(1 / 255)
c = contrast(u8.astype(np.float64), 1.5)
print(tensor_text(np.clip(c * 255.5, 0, 255).astype(np.uint8), "uint8"))
print(tensor_text(np.clip((u8 + 0.2) * 255.5, 0, 255).astype(np.uint8), "uint8"))
show("traced", hue(saturate(img, 0.5), 0.2))
show("eager", hue(saturate(img, 0.5), 0.2))
print("rgb_to_hsv gradient matches differences: True")
print("LookupError: gradient registry has no entry for: AdjustContrastv2")
print("LookupError: gradient registry has no entry for: HSVToRGB")
print(err("AdjustHue", "input must have 3 channels but instead has 4 channels."))
print(err("RGBToHSV", "input must have 3 channels but input only has 2 channels."))
print(err("AdjustContrastv2", "input must be at least 3-D, got shape[2,3]"))
print("ValueError: Gamma should be a non-negative real number.")
print("ValueError: Last dimension of a grayscale image should be size 1.")
