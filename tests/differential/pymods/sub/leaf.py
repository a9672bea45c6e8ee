leaf_name = "leaf of " + __package__
