import numpy as np
import scipy.fft


def show(name, a, digits=4):
    print(name, [float("%.*f" % (digits, v)) + 0.0 for v in np.asarray(a, dtype=np.float64).ravel()])


rng = np.random.RandomState(3)
x = rng.uniform(-1, 1, size=(3, 8)).astype(np.float32)
f = x.astype(np.float64)
for t in (1, 2, 3, 4):
    show("dct%d" % t, scipy.fft.dct(f, type=t))
    if t != 1:
        show("dct%d ortho" % t, scipy.fft.dct(f, type=t, norm="ortho"))
    show("idct%d" % t, scipy.fft.dct(f, type={1: 1, 2: 3, 3: 2, 4: 4}[t]))
show("dct2 n=5", scipy.fft.dct(f[:, :5]))
show("dct2 n=11", scipy.fft.dct(np.pad(f, [[0, 0], [0, 3]]), norm="ortho"))
show("round trip", f)
print("<dtype: 'float64'>", "(3, 8)")
show("traced dct3", scipy.fft.dct(f, type=3, norm="ortho"))
show("traced idct4", scipy.fft.dct(f, type=4))

w = rng.uniform(-1, 1, size=(3, 8)).astype(np.float32).astype(np.float64)
# d/dx sum(D x * w) = D^T w with D the orthonormal DCT-II matrix.
D = scipy.fft.dct(np.eye(8), norm="ortho", axis=0)
show("dct grad", w @ D)


def hz_to_mel(hz, dtype):
    return dtype(1127.0) * np.log(dtype(1.0) + hz / dtype(700.0))


def linspace(start, stop, num, dtype):
    # TF's LinSpace kernel: start + i * step in the dtype, the last value stop.
    start, stop = dtype(start), dtype(stop)
    step = (stop - start) / dtype(num - 1)
    out = start + step * np.arange(num).astype(dtype)
    out[-1] = stop
    return out


def mel_matrix(num_mel_bins, num_spectrogram_bins, sample_rate, lower, upper, dtype):
    # TF's documented HTK construction, in the matrix's dtype.
    lin = linspace(0.0, dtype(sample_rate) / dtype(2.0), num_spectrogram_bins, dtype)[1:]
    bins_mel = hz_to_mel(lin, dtype)[:, None]
    edges = linspace(hz_to_mel(dtype(lower), dtype), hz_to_mel(dtype(upper), dtype), num_mel_bins + 2, dtype)
    lo, ce, up = edges[:-2][None, :], edges[1:-1][None, :], edges[2:][None, :]
    lower_slopes = (bins_mel - lo) / (ce - lo)
    upper_slopes = (up - bins_mel) / (up - ce)
    w = np.maximum(0.0, np.minimum(lower_slopes, upper_slopes)).astype(dtype)
    return np.pad(w, [[1, 0], [0, 0]])


m = mel_matrix(20, 129, 8000, 125.0, 3800.0, np.float32)
print((129, 20), "<dtype: 'float32'>")
show("mel default", m, 4)
m2 = mel_matrix(10, 33, 16000, 20.0, 7600.0, np.float64)
print((33, 10), "<dtype: 'float64'>")
show("mel 16k", m2, 4)

log_mel = rng.uniform(-3, 2, size=(2, 5, 12)).astype(np.float32).astype(np.float64)
show("mfccs", (scipy.fft.dct(log_mel) / np.sqrt(2.0 * 12))[..., :6])

show("kaiser", np.kaiser(7, 5.0), 5)
show("kaiser default", np.kaiser(10, 12.0), 5)
k = np.kaiser(5, 4.0)
half = np.sqrt(np.cumsum(k)[:-1] / np.sum(k))
show("kbd", np.concatenate([half, half[::-1]]), 5)
n = np.arange(8)
vorbis = np.sin(np.pi / 2 * np.sin(np.pi / 8 * (n + 0.5)) ** 2)
show("vorbis", vorbis, 5)

sig = rng.uniform(-1, 1, size=(20,)).astype(np.float32).astype(np.float64)


def mdct(s, frame_length, window, ortho, pad_end=False):
    # X[k] = sum_n w[n] x[n] cos(pi/N (n + 1/2 + N/2)(k + 1/2)), N = frame_length / 2.
    half = frame_length // 2
    if pad_end:
        frames = -(-len(s) // half)
        s = np.pad(s, [0, max(0, (frames - 1) * half + frame_length - len(s))])
    else:
        frames = 1 + (len(s) - frame_length) // half
    nn = np.arange(frame_length)[None, :]
    kk = np.arange(half)[:, None]
    basis = np.cos(np.pi / half * (nn + 0.5 + half / 2) * (kk + 0.5))
    out = np.array([basis @ (window * s[i * half:i * half + frame_length]) for i in range(frames)])
    return out * (np.sqrt(2.0 / half) if ortho else 2.0)


show("mdct", mdct(sig, 8, vorbis, False))
show("mdct ortho", mdct(sig, 8, np.full(8, 1 / np.sqrt(2)), True))
show("imdct round trip", sig)

print("ValueError Types I, II, III and IV (I)DCT are supported.")
print("ValueError Normalization is not supported for the Type-I DCT.")
print("ValueError Unknown normalization. Expected None or 'ortho', got: unitary")
print("ValueError n should be a positive integer or None")
print("NotImplementedError axis must be -1. Got: 0")
print("Type-I DCT requires the dimension to be greater than one.")
print("num_mel_bins must be positive. Got: 0")
print("lower_edge_hertz must be non-negative. Got: -1.0")
print("lower_edge_hertz 4000.0 >= upper_edge_hertz 3800.0")
print("upper_edge_hertz must not be larger than the Nyquist frequency (sample_rate / 2). Got: 5000.0 for sample_rate: 8000")
print("dtype must be a floating point type. Got: <dtype: 'int32'>")
print("The frame length must be a multiple of 4.")
