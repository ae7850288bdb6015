"""Loaders that bring papers and reviews into the warehouse's raw layer."""
