from .leaf import leaf_name
from .. import shapes
from ..plain import Point as P
