"""The ground floor every other part stands on: errors, the warehouse file (its lock message,
its `raw` and `derived` schemas, what a load writes), the taxonomies, the seed readers and the
HTTP retry policy. It imports nothing of the project's."""
