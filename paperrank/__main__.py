"""`python -m paperrank ...`: the same as the `paperrank` console script."""

from paperrank.cli import main

if __name__ == "__main__":
    main(prog_name="paperrank")
