from . import circ_b
A = "a"
print("circ_a sees", circ_b.B)
