"""paperrank: rank a conference's accepted papers within themes from their public reviews."""
