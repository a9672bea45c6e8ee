// _tf_data_native: the per-element loop of tf.data's shuffle buffer
// (lib/tf/data/_tf_data_order.tfs), native because it runs once per
// element of every shuffled dataset: written in .tfs it was most of the
// time of a shuffle().batch() pipeline (2.4 us an element); and
// batched_map (batched_map.cpp: a map function run on whole batches).
#include "lib/tf/tf_lib.h"
#include "runtime/kernels/philox.h"

namespace tfs::runtime::tf {

namespace {

// shuffle_take(ring, pending, n, size, start, end, seed, seed2, words_used):
// TF 2.15's ShuffleDatasetV3 draw for draw, for the next n elements. Ring
// positions [start, end) are full, position p in slot p % size of `ring`
// (a list that grows to `size`). Before each element the ring is topped up
// to `size` from `pending` (the input items, in order; the caller reads
// exactly the ones this consumes, or fewer at the input's end). The element
// is the slot at start + word % count, word being word number `words_used`
// of Philox(seed, seed2); the slot at start takes its place and leaves the
// ring. Returns (elements, start, end, words_used).
Value shuffleTake(Interpreter &in, const Bound &a) {
  auto *ring = a["ring"].as<ListObject>();
  auto *pending = a["pending"].as<ListObject>();
  if (!ring || !pending) in.raise("TypeError", "shuffle_take: ring and pending must be lists");
  int64_t n = in.toInt(a["n"]), size = in.toInt(a["size"]);
  int64_t start = in.toInt(a["start"]), end = in.toInt(a["end"]);
  int64_t wordsUsed = in.toInt(a["words_used"]);
  if (size <= 0 || start < 0 || end < start || end - start > size || wordsUsed < 0)
    in.raise("ValueError", "shuffle_take: inconsistent ring state");
  auto &slots = ring->items;
  const auto &input = pending->items;
  kernels::Philox gen = kernels::Philox::fromSeeds(uint64_t(in.toInt(a["seed"])), uint64_t(in.toInt(a["seed2"])));
  gen.skip(uint64_t(wordsUsed) / 4);
  std::array<uint32_t, 4> block = gen.next();
  size_t inBlock = size_t(wordsUsed % 4);
  std::vector<Value> out;
  out.reserve(size_t(std::max<int64_t>(n, 0)));
  size_t at = 0;
  while (int64_t(out.size()) < n) {
    for (; at < input.size() && end - start < size; ++at, ++end) {
      if (end < size) {
        if (int64_t(slots.size()) != end) in.raise("ValueError", "shuffle_take: inconsistent ring state");
        slots.push_back(input[at]);
      } else {
        slots[size_t(end % size)] = input[at];
      }
    }
    int64_t count = end - start;
    if (count == 0) break;
    if (inBlock == 4) {
      block = gen.next();
      inBlock = 0;
    }
    uint32_t word = block[inBlock++];
    ++wordsUsed;
    size_t index = size_t((start + int64_t(word % uint64_t(count))) % size);
    size_t first = size_t(start % size);
    out.push_back(slots[index]);
    slots[index] = slots[first];
    slots[first] = Value();
    ++start;
  }
  return Value(make<TupleObject>(std::vector<Value>{Value(make<ListObject>(std::move(out))), Value::integer(start),
                                                    Value::integer(end), Value::integer(wordsUsed)}));
}

}  // namespace

void addBatchedMap(Interpreter &in, ModuleObject &m);  // batched_map.cpp

void registerDataModules() {
  Interpreter::registerNativeModule("_tf_data_native", [](Interpreter &in) -> Value {
    auto m = make<ModuleObject>("_tf_data_native");
    m->scope->vars["shuffle_take"] = nativeWithSignature(
        in, "shuffle_take(ring, pending, n, size, start, end, seed, seed2, words_used)", shuffleTake);
    addBatchedMap(in, *m);
    return Value(m);
  });
}

}  // namespace tfs::runtime::tf
