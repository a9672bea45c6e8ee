// TF's WAV codec (DecodeWav / EncodeWav, tensorflow/core/lib/wav): 16-bit
// little-endian PCM only. Decoding checks the header as TF does (RIFF,
// WAVE, a 16- or 18-byte "fmt " chunk, PCM, 16 bits, consistent byte
// rates), skips chunks other than "data", and maps a sample s to s / 32768.
// desired_channels repeats the file's last channel or drops extra ones;
// desired_samples pads with zeros or cuts. Encoding rounds x * 32768 and
// clamps it to int16.
#include "runtime/kernels/kernel_util.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace tfs::runtime::kernels {

namespace {

// A cursor over the file with TF's bounds messages.
struct WavReader {
  const std::string &data;
  size_t offset = 0;

  void need(size_t n) const {
    if (offset + n > data.size()) fail(OpKind::DecodeWav, "Data too short when trying to read string");
  }
  std::string text(size_t n) {
    need(n);
    std::string s = data.substr(offset, n);
    offset += n;
    return s;
  }
  void expect(const char *t) {
    std::string found = text(std::strlen(t));
    if (found != t) fail(OpKind::DecodeWav, fmt::format("Header mismatch: Expected {} but found {}", t, found));
  }
  template <typename T> T value() {
    need(sizeof(T));
    T v = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      v = T(v | T(uint64_t(uint8_t(data[offset + i])) << (8 * i)));
    offset += sizeof(T);
    return v;
  }
};

std::vector<Tensor> decodeWav(std::span<const Tensor> in, const ir::Attrs &attrs) {
  const Tensor &contents = in[0];
  if (contents.rank() != 0)
    fail(OpKind::DecodeWav,
         fmt::format("contents must be scalar, got shape {}", ir::Shape(contents.shape()).debugString()));
  int64_t desiredChannels = ir::attrInt(attrs, "desired_channels", -1);
  int64_t desiredSamples = ir::attrInt(attrs, "desired_samples", -1);
  WavReader r{contents.data<std::string>()[0]};
  r.expect("RIFF");
  r.value<uint32_t>();  // the file's size, not relied on
  r.expect("WAVE");
  r.expect("fmt ");
  uint32_t formatSize = r.value<uint32_t>();
  if (formatSize != 16 && formatSize != 18)
    fail(OpKind::DecodeWav, fmt::format("Bad file size for WAV: Expected 16 or 18, but got{}", formatSize));
  uint16_t format = r.value<uint16_t>();
  if (format != 1) fail(OpKind::DecodeWav, fmt::format("Bad audio format for WAV: Expected 1 (PCM), but got{}", format));
  uint16_t channels = r.value<uint16_t>();
  if (channels < 1)
    fail(OpKind::DecodeWav, fmt::format("Bad number of channels for WAV: Expected at least 1, but got {}", channels));
  uint32_t rate = r.value<uint32_t>();
  uint32_t bytesPerSecond = r.value<uint32_t>();
  uint16_t bytesPerSample = r.value<uint16_t>();  // one frame: every channel
  uint16_t bits = r.value<uint16_t>();
  if (bits != 16) fail(OpKind::DecodeWav, fmt::format("Can only read 16-bit WAV files, but received {}", bits));
  uint32_t expectedBytes = (uint32_t(bits) * channels + 7) / 8;
  if (bytesPerSample != expectedBytes)
    fail(OpKind::DecodeWav, fmt::format("Bad bytes per sample in WAV header: Expected {} but got {}", expectedBytes,
                                        bytesPerSample));
  if (bytesPerSecond != uint32_t(bytesPerSample) * rate)
    fail(OpKind::DecodeWav, fmt::format("Bad bytes per second in WAV header: Expected {} but got {} (sample_rate={}, "
                                        "bytes_per_sample={})",
                                        uint32_t(bytesPerSample) * rate, bytesPerSecond, rate, bytesPerSample));
  if (formatSize == 18) r.offset += 2;
  std::vector<float> samples;
  int64_t frames = 0;
  bool found = false;
  while (r.offset < r.data.size()) {
    std::string id = r.text(4);
    uint32_t size = r.value<uint32_t>();
    if (size > uint32_t(std::numeric_limits<int32_t>::max()))
      fail(OpKind::DecodeWav, fmt::format("WAV data chunk '{}' is too large: {} bytes, but the limit is {}", id, size,
                                          std::numeric_limits<int32_t>::max()));
    if (id != "data") {
      r.offset += size;
      continue;
    }
    if (found) fail(OpKind::DecodeWav, "More than one data chunk found in WAV");
    found = true;
    frames = size / bytesPerSample;
    size_t count = size_t(frames) * channels;
    r.need(2 * count);
    samples.resize(count);
    for (size_t i = 0; i < count; ++i) samples[i] = float(int16_t(r.value<uint16_t>())) * (1.0f / 32768.0f);
  }
  if (!found) fail(OpKind::DecodeWav, "No data chunk found in WAV");
  int64_t outSamples = desiredSamples == -1 ? frames : desiredSamples;
  int64_t outChannels = desiredChannels == -1 ? channels : desiredChannels;
  Tensor audio = Tensor::empty(DType::Float32, {outSamples, outChannels});
  float *o = audio.data<float>();
  for (int64_t s = 0; s < outSamples; ++s)
    for (int64_t c = 0; c < outChannels; ++c)
      *o++ = s >= frames ? 0.0f : samples[size_t(s * channels + std::min<int64_t>(c, channels - 1))];
  return {audio, Tensor::scalar(int32_t(rate))};
}

void put(std::string &out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

std::vector<Tensor> encodeWav(std::span<const Tensor> in, const ir::Attrs &) {
  const Tensor &audio = in[0], &rateT = in[1];
  if (audio.rank() != 2)
    fail(OpKind::EncodeWav, fmt::format("audio must be 2-dimensional{}", ir::Shape(audio.shape()).debugString()));
  if (rateT.rank() != 0)
    fail(OpKind::EncodeWav,
         fmt::format("Input sample_rate should be a scalar tensor, got {} instead.",
                     ir::Shape(rateT.shape()).debugString()));
  int64_t rate = rateT.data<int32_t>()[0];
  int64_t frames = audio.shape()[0], channels = audio.shape()[1];
  if (rate <= 0) fail(OpKind::EncodeWav, fmt::format("sample_rate must be in (0, 2^32), got: {}", rate));
  if (channels <= 0 || channels > 65535)
    fail(OpKind::EncodeWav, fmt::format("num_channels must be in (0, 2^16), got: {}", channels));
  if (frames == 0) fail(OpKind::EncodeWav, "num_frames must be positive.");
  uint64_t dataSize = uint64_t(frames) * channels * 2;
  if (44 + dataSize > 0xffffffffull)
    fail(OpKind::EncodeWav, "Provided channels and frames cannot be encoded as a WAV.");
  std::string out;
  out.reserve(44 + dataSize);
  out += "RIFF";
  put(out, 36 + dataSize, 4);
  out += "WAVEfmt ";
  put(out, 16, 4);
  put(out, 1, 2);
  put(out, uint64_t(channels), 2);
  put(out, uint64_t(rate), 4);
  put(out, uint64_t(rate) * 2 * channels, 4);
  put(out, uint64_t(channels) * 2, 2);
  put(out, 16, 2);
  out += "data";
  put(out, dataSize, 4);
  const float *x = audio.data<float>();
  for (int64_t i = 0; i < frames * channels; ++i) {
    float v = std::min(std::max(std::round(x[i] * 32768.0f), -32768.0f), 32767.0f);
    put(out, uint16_t(int16_t(v)), 2);
  }
  return {Tensor::scalar(std::move(out))};
}

}  // namespace

void registerAudioWav(KernelTable &t) {
  t[size_t(OpKind::DecodeWav)] = decodeWav;
  t[size_t(OpKind::EncodeWav)] = encodeWav;
}

}  // namespace tfs::runtime::kernels
