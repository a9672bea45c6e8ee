# numpy oracle for ../signal_fft.tfs (run with /usr/bin/python3; its stdout
# is signal_fft.expected): numpy 1.24's np.fft (pocketfft) for the
# transforms, TF's documented compositions (frame, raised-cosine windows,
# overlap-add, stft / inverse_stft) written in numpy.
import numpy as np


def rounded(a, scale, single):
    if not single:
        return np.round(a.astype(np.float64), 4) + 0.0
    m = float(np.max(scale)) if scale.size else 0.0
    d = 4 - int(np.floor(np.log10(m))) if m > 0 else 4
    return np.round(a.astype(np.float64), d) + 0.0


def show(label, a):
    a = np.asarray(a)
    single = a.dtype in (np.float32, np.complex64)
    if np.iscomplexobj(a):
        scale = np.abs(a).astype(np.float32 if single else np.float64)
        print(label, "re", rounded(a.real, scale, single).tolist())
        print(label, "im", rounded(a.imag, scale, single).tolist())
        return
    if a.dtype == np.float32 or a.dtype == np.float64:
        a = rounded(a, np.abs(a), single)
    print(label, a.tolist())


def tensor(a, dtype):
    a = np.asarray(a).astype(dtype)
    body = np.array2string(a, separator=" ")
    shape = "(" + ", ".join(str(d) for d in a.shape) + ("," if a.ndim == 1 else "") + ")"
    sep = "\n" if "\n" in body else ""
    print("tf.Tensor(%s%s, shape=%s, dtype=%s)" % (sep, body, shape, dtype))


tensor(np.fft.fft(np.ones(4)), "complex64")
tensor(np.fft.rfft([1.0, 2.0, 3.0, 4.0]), "complex64")
tensor(np.fft.irfft([10, -2 + 2j, -2]), "float32")
tensor(np.fft.fft2(np.ones((2, 2))), "complex128")

sig = np.array([1.0, 2.0, 0.5, -1.0, 3.0, 0.25, -2.0])
z = sig + 1j * sig[::-1] * 0.5
show("fft128", np.fft.fft(z))
show("ifft128", np.fft.ifft(z))
show("fft64", np.fft.fft(z).astype(np.complex64))
m = (np.arange(24) * (1 + 0.5j)).reshape(2, 3, 4)
show("fft2d", np.fft.fft2(m).astype(np.complex64))
show("ifft2d", np.fft.ifft2(m).astype(np.complex64))
show("fft3d", np.fft.fftn(m).astype(np.complex64))
show("ifft3d", np.fft.ifftn(m).astype(np.complex64))
x = np.array([[1.0, 2.0, 0.5, -1.0, 3.0], [0.0, 1.0, 0.0, -1.0, 2.0]], np.float32)
show("rfft", np.fft.rfft(x).astype(np.complex64))
show("rfft_short", np.fft.rfft(x, 3).astype(np.complex64))
show("rfft_long", np.fft.rfft(x, 8).astype(np.complex64))
spec = np.fft.rfft(x)
show("irfft_default", np.fft.irfft(spec).astype(np.float32))
show("irfft_odd", np.fft.irfft(spec, 5).astype(np.float32))
# TF zero-pads the half spectrum to fft_length // 2 + 1 bins; numpy's
# irfft(n=9) does the same.
show("irfft_long", np.fft.irfft(spec, 9).astype(np.float32))
img = np.arange(30.0).reshape(2, 3, 5) * 0.5
show("rfft2d", np.fft.rfft2(img))
show("irfft2d", np.fft.irfft2(np.fft.rfft2(img), s=[3, 5]))
# fft_length [4, 4]: rows zero-padded 3 -> 4, columns cropped 5 -> 4.
show("rfft2d_len", np.fft.rfft2(img[:, :, :4], s=[4, 4]))
show("rfft3d", np.fft.rfftn(img))
show("irfft3d", np.fft.irfftn(np.fft.rfftn(img), s=[2, 3, 5]))
show("fftshift", np.fft.fftshift([0., 1., 2., 3., 4., -5., -4., -3., -2., -1.]).astype(np.float32))
show("ifftshift", np.fft.ifftshift(np.array([[0., 1., 2.], [3., 4., -4.], [-3., -2., -1.]], np.float32)))
print("fftshift_axis", np.fft.fftshift(np.arange(6).reshape(2, 3), axes=1).tolist())
frames = np.arange(12.0).reshape(3, 4)
out = np.zeros(2 * 2 + 4)
for f in range(3):
    out[2 * f:2 * f + 4] += frames[f]
show("overlap_and_add", out.astype(np.float32))


def hann(n):
    # TF's periodic raised cosine (periodic=True): denominator n for even n.
    return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / (n + (1 - n % 2) - 1))


def frame(a, length, step):
    count = 1 + (len(a) - length) // step
    return np.stack([a[i * step:i * step + length] for i in range(count)])


audio = (np.sin(np.arange(32) * 0.7) + np.cos(np.arange(32) * 0.2)).astype(np.float32)
st = np.fft.rfft(frame(audio, 8, 4) * hann(8), 8)
print("stft shape", "(7, 5)", "complex64")
show("stft", st.astype(np.complex64))
show("stft_fft16", np.fft.rfft(frame(audio, 8, 4), 16).astype(np.complex64))
# inverse_stft_window_fn(4): the forward window over the sum of its squares
# at each position mod the step.
w = hann(8)
denom = (w ** 2).reshape(2, 4).sum(0)
inv_w = w / np.tile(denom, 2)
real = np.fft.irfft(st, 8) * inv_w
back = np.zeros(6 * 4 + 8)
for f in range(7):
    back[4 * f:4 * f + 8] += real[f]
show("inverse_stft", back.astype(np.float32))
show("traced_fft128", np.fft.fft(z))
show("traced_rfft_roundtrip", np.fft.irfft(np.fft.rfft(x, 8), 8).astype(np.float32))
show("traced_rfft2d", np.fft.rfft2(img))
show("traced_stft", st.astype(np.complex64))
