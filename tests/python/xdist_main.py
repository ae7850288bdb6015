"""Stands in for the `__main__` file of a pytest-xdist worker (whose `__main__` is a `python -c`
string): conftest.py names this file there. pyspark takes a `__main__` without a file for a
doctest run and exits; multiprocessing's spawn (the quality gates' worker) runs the parent's
`__main__` file in the child, so it must be a real file that does nothing."""
