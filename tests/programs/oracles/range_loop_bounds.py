# CPython oracle for ../range_loop_bounds.tfs (run with /usr/bin/python3;
# its stdout is range_loop_bounds.expected): Python's range has tf.range's
# elements.
cases = [(0, 5, 1), (0, 10, 3), (2, 11, 3), (5, 0, -1), (10, -3, -4), (3, 3, 1),
         (-7, 8, 5), (-1, -9, -2)]
for start, limit, delta in cases:
    for dtype in ("int32", "int64"):
        r = range(start, limit, delta)
        print(start, limit, delta, dtype, len(r), sum(r))
for n in (0, 1, 7):
    print(n, float(len(range(n))))
