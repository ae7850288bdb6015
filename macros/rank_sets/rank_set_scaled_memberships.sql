{#-
    Exact memberships of the scaled rank-set path given its simultaneous critical value c, as a
    chain of CTEs ending in `name`: per paper whether it is possibly in the top tau
    (is_possibly_decided, null where the brackets below leave it open), the exact count of
    partners that beat it for the open ones (simultaneous_beaten_by) and, for the category's
    top tau by estimate, the exact count of partners it beats (simultaneous_beats).

    - Possibly (simultaneous lower <= tau): k beats i when its reach
      r_k(se_i) = x_k - c sqrt(se_i^2 + se_k^2) exceeds x_i, so i is possibly in when the
      tau-th largest reach at se_i is at most x_i. Reaches fall as se_i rises, so the tau-th
      largest reaches at the ends of i's cell of se bracket it and decide every paper outside
      the bracket; those inside are counted exactly against the few partners whose reach at the
      cell's low end passes the bracket's lower end (the only ones that can beat them). Costs
      cells + 1 reaches per paper.
    - Certainly (simultaneous upper <= tau): only a paper with fewer than tau papers above it
      can beat n - tau others, so the category's top tau (category_rank) are counted exactly
      against every partner.

    `papers` is rank_set_scaled_paper_ctes' last CTE; `tau` the N of the top-N.
-#}
{% macro rank_set_scaled_membership_ctes(name, papers, tau) -%}
    {%- set tau_value = tau | int -%}
    -- possibly: k beats i when its reach r_k(se_i) = x_k - c sqrt(se_i^2 + se_k^2) exceeds x_i, so
-- i is possibly in the top tau when the tau-th largest reach at se_i is at most x_i. Every reach
-- falls as se_i rises, so at the ends of i's cell of se [s_low, s_high] that tau-th largest
-- reach brackets the one at se_i: it decides every paper but those between the two
{{ name }}_cell_ends as (

    select
        group_key,
        se_cell,
        coalesce(
            lag(cell_se_high) over (partition by group_key order by se_cell), group_se_min
        ) as s_low,
        cell_se_high as s_high

    from (
        select
            group_key,
            se_cell,
            max(se) as cell_se_high,
            min(min(se)) over (partition by group_key) as group_se_min
        from {{ papers }}
        group by group_key, se_cell
    ) as cells

),

{{ name }}_ends as (

    select distinct
        group_key,
        s_low as end_se
    from {{ name }}_cell_ends

    union

    select distinct
        group_key,
        s_high as end_se
    from {{ name }}_cell_ends

),

{{ name }}_reaches as (

    select
        ends.group_key,
        ends.end_se,
        papers.category_item_number,
        papers.estimate,
        papers.se,
        papers.estimate - papers.simultaneous_critical_value
        * sqrt(ends.end_se * ends.end_se + papers.se * papers.se) as reach

    from {{ name }}_ends as ends
    inner join {{ papers }} as papers
        on ends.group_key = papers.group_key

),

{{ name }}_tau_reach as (

    select
        group_key,
        end_se,
        coalesce({{ nth_largest('reach', tau_value) }}, -1e308) as tau_reach

    from {{ name }}_reaches
    group by group_key, end_se

),

{{ name }}_brackets as (

    select
        cell_ends.group_key,
        cell_ends.se_cell,
        cell_ends.s_low,
        at_low.tau_reach as tau_reach_high,
        at_high.tau_reach as tau_reach_low

    from {{ name }}_cell_ends as cell_ends
    inner join {{ name }}_tau_reach as at_low
        on
            cell_ends.group_key = at_low.group_key
            and cell_ends.s_low = at_low.end_se
    inner join {{ name }}_tau_reach as at_high
        on
            cell_ends.group_key = at_high.group_key
            and cell_ends.s_high = at_high.end_se

),

{{ name }}_decided as (

    select
        papers.group_key,
        papers.category_item_number,
        papers.estimate,
        papers.se,
        papers.simultaneous_critical_value,
        brackets.se_cell,
        brackets.s_low,
        brackets.tau_reach_low,
        case
            when papers.estimate >= brackets.tau_reach_high then true
            when papers.estimate < brackets.tau_reach_low then false
        end as is_possibly_decided

    from {{ papers }} as papers
    inner join {{ name }}_brackets as brackets
        on
            papers.group_key = brackets.group_key
            and papers.se_cell = brackets.se_cell

),

-- the only partners that can beat a paper left open in a cell: a beater's reach at the cell's
-- low end exceeds the cell's lower tau-th reach. Grouped (partners alike counted once, with
-- their number): the group also keeps an optimiser from joining the open papers to every
-- reach before this filter, which made the count quadratic in the category's size
{{ name }}_open_partners as (

    select
        brackets.group_key,
        brackets.se_cell,
        reaches.estimate,
        reaches.se,
        count(*) as partner_count

    from {{ name }}_brackets as brackets
    inner join {{ name }}_reaches as reaches
        on
            brackets.group_key = reaches.group_key
            and brackets.s_low = reaches.end_se
    where reaches.reach > brackets.tau_reach_low
    group by brackets.group_key, brackets.se_cell, reaches.estimate, reaches.se

),

{{ name }}_open_beaten as (

    select
        open_papers.group_key,
        open_papers.category_item_number,
        sum(case
            when partners.estimate - open_papers.estimate > open_papers.simultaneous_critical_value
                * sqrt(open_papers.se * open_papers.se + partners.se * partners.se)
                then partners.partner_count else 0
        end) as simultaneous_beaten_by

    from {{ name }}_decided as open_papers
    inner join {{ name }}_open_partners as partners
        on
            open_papers.group_key = partners.group_key
            and open_papers.se_cell = partners.se_cell
    where open_papers.is_possibly_decided is null
    group by open_papers.group_key, open_papers.category_item_number

),

-- certainly: the top tau by estimate, counted exactly against every partner
{{ name }}_top_beats as (

    select
        papers.group_key,
        papers.category_item_number,
        sum(case
            when papers.estimate - partners.estimate > papers.simultaneous_critical_value
                * sqrt(papers.se * papers.se + partners.se * partners.se)
                then 1 else 0
        end) as simultaneous_beats

    from {{ papers }} as papers
    inner join {{ papers }} as partners
        on papers.group_key = partners.group_key
    where papers.category_rank <= {{ tau_value }}
    group by papers.group_key, papers.category_item_number

),

{{ name }} as (

    select
        decided.group_key,
        decided.category_item_number,
        decided.is_possibly_decided,
        open_beaten.simultaneous_beaten_by,
        top_beats.simultaneous_beats

    from {{ name }}_decided as decided
    left join {{ name }}_open_beaten as open_beaten
        on
            decided.group_key = open_beaten.group_key
            and decided.category_item_number = open_beaten.category_item_number
    left join {{ name }}_top_beats as top_beats
        on
            decided.group_key = top_beats.group_key
            and decided.category_item_number = top_beats.category_item_number

)
{%- endmacro %}
