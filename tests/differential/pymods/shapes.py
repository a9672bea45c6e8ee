"""Shapes: a module with __all__."""
__all__ = ["area", "UNIT"]
UNIT = "cm"
_hidden = 0
counter = 0


def area(w, h):
    return w * h


def perimeter(w, h):
    return 2 * (w + h)


def bump():
    global counter
    counter += 1
    return counter


print("shapes loaded as", __name__)
if __name__ == "__main__":
    print("not printed on import")
