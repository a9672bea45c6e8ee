import io
import struct
import wave

import numpy as np

x = np.array([[0.0, 0.5], [-0.5, 1.0], [-1.0, 0.25], [0.1, -0.1], [0.00001, 2.0]], np.float32)
samples = np.clip(np.round(x.astype(np.float32) * np.float32(32768)), -32768, 32767).astype("<i2")
buf = io.BytesIO()
with wave.open(buf, "wb") as f:
    f.setnchannels(2)
    f.setsampwidth(2)
    f.setframerate(16000)
    f.writeframes(samples.tobytes())
w = buf.getvalue()
print(len(w), w[:4], w[8:16], list(w[22:24]), list(w[24:28]), w[36:40])
print(list(np.frombuffer(w[44:], "<i2")))

pcm = np.array([[0, 1000, -32768], [32767, -1, 5], [12, -12, 100]], np.int16)
f = pcm.astype(np.float32) / np.float32(32768)
print("(3, 3)", 8000, f.ravel().tolist())
print(f[:, 0].tolist() + [0.0, 0.0])
print(f[0].tolist() + [f[0, 2]])
print("(None, 2)")
print(f[2, :2].tolist())
for _ in range(3):
    print("InvalidArgumentError")
