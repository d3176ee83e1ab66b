"""The sense inventory: the tree, its builder, leaf ids, readable labels."""
