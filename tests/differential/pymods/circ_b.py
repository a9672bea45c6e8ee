from . import circ_a
B = "b"
print("circ_b sees A yet:", hasattr(circ_a, "A"))
