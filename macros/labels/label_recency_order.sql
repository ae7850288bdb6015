{#- The one rule for a paper's "latest label" of a taxonomy, as a window's order: newest answer
    first, then the newest load, then the label's content hash, so that every label has its own
    place. stg_raw__paper_labels numbers every label by it (label_recency); a model that needs
    only the latest label of a subset (int_paper_labels_deduplicated) orders that subset's keys
    by it, which picks the label of lowest label_recency without numbering every label. -#}
{% macro label_recency_order(labeled_at='labeled_at', loaded_at='loaded_at', label_id='label_id') -%}
    {{ labeled_at }} desc, {{ loaded_at }} desc, {{ label_id }} asc
{%- endmacro %}
