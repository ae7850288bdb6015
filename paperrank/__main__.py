"""`python -m paperrank ...`: the same as the `paperrank` console script."""

from paperrank.cli import console

if __name__ == "__main__":
    console()
