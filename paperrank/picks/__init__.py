"""The experts' picks: the CSV files the report page downloads, merged into the seed
`seeds/expert_selections.csv` that dbt checks against the ranking (marts.expert_picks)."""
