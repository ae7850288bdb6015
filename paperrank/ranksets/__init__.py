"""Rank confidence sets for any table of estimates (`paperrank rank-sets`), with the SQL the
warehouse uses (macros/rank_sets/), so the method can be checked on data that is not ours."""
