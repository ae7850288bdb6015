"""The experts' report: one self-contained HTML page per venue, drawn from the marts only."""
