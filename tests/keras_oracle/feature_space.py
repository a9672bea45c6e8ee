# Oracle for feature_space.tfs: Keras 2.15's FeatureSpace by hand. Lookup
# vocabularies by count then token, high to low (the OOV token first);
# one-hot features as CategoryEncoding(multi_hot) over vocabulary_size();
# features concatenated in sorted name order, crosses after; Normalization
# with the population variance in float32.
import numpy as np

string_vocab = ["[UNK]", "zero", "two", "three", "one"]
int_vocab = [-1, 3, 2, 1, 0]
print(string_vocab)
print(int_vocab)
print("concat", "(4, 43)", "float32")
f = np.array([0.0, 0.1, 0.2, 0.3], dtype=np.float32)
mean = f.mean(dtype=np.float32)
var = ((f - mean) ** 2).mean(dtype=np.float32)
norm = (f - mean) / np.sqrt(var)
strings = ["zero", "one", "two", "three"]
ints = [0, 1, 2, 3]
rows = []
for k in range(4):
    row = [float(norm[k])]
    row += [1.0 if int_vocab[j] == ints[k] else 0.0 for j in range(5)]
    row += [1.0 if string_vocab[j] == strings[k] else 0.0 for j in range(5)]
    rows.append(row)
    print(" ".join(["%.5f" % x for x in row]))
print("cross", (4, 32), [1.0, 1.0, 1.0, 1.0])
print(["string_values_X_int_values"], 32)
print("single", "(43,)", True)
print("mapped", [(2, 43), (2, 43)], True)
print("inputs", ["float_values", "int_values", "string_values"], [[None, 1], [None, 1], [None, 1]])
print("encoded", [None, 43])
print("model", (4, 43), True)
# fs2: "s" vocab [UNK, a, c, b] (a twice; c > b); "i" vocab [5, 9, 7] with
# no OOV index (5 twice; 9 > 7).
print("i", "(3, 1)", "int64", [1, 0, 2])
print("s", "(3, 1)", "int64", [1, 2, 0])
print("ValueError:", "You need to call `.adapt(dataset)` on the FeatureSpace before you can start using it.")
print("ValueError:", "Invalid feature type: complex")
print("ValueError:", "All features referenced in the `crosses` argument should be present in the `features` dict. "
      "Received unknown features: ('x', 'y')")
