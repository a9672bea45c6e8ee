# No __all__: `import *` binds the public names.
alpha = 1
beta = [1, 2]
_gamma = 3


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return f"Point({self.x}, {self.y})"
