"""Related papers, sub-themes, maps and the label audit: offline text similarity before dbt.

`paperrank.related.refresh.refresh(db, venue)` computes what is missing or stale into the
`derived` schema, which dbt reads as a source (models/staging/derived/, marts in
models/marts/related/).  The method is TF-IDF blended with its latent semantic analysis
(paperrank.related.method); the measures and costs are in docs/related-papers.md.
scikit-learn is imported only by the modules that compute (vectors, classifier), on first use.
"""
