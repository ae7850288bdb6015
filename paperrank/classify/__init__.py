"""Assign each accepted paper one category of a taxonomy (LLM, offline keywords, or imports)."""
