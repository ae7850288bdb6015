-- noqa: disable=LT02,LT12
-- (the unrolled step-down loop: sqlfluff cannot lay out its Jinja-generated CTEs)
{#-
    Critical values of the rank confidence sets by the step-down of Mogstad, Romano, Shaikh
    and Wilhelm (2024) as csranks implements it (csdiffmeans with stepdown = TRUE), over `partners`
    (rank_set_partner_ctes), as a chain of CTEs ending in `name`: one row per item of `estimates` with its marginal critical value, its group's
    simultaneous one, and both from the step before (to tell whether the step-down converged).

    For ordered pairs (j, k) of a group: t_jk = (x_j - x_k) / sqrt(se_j^2 + se_k^2) and, in draw
    b, D_jk = (se_j u_j - se_k u_k) / sqrt(se_j^2 + se_k^2). For a set S of pairs, c(S) is the
    `coverage` quantile (type 7) over the B draws of max_{(j,k) in S} D_jk; a pair is rejected
    ("j is above k") when t_jk > c(S). The step-down starts from S_0 (all ordered pairs of the
    group for the simultaneous sets; the pairs (i, k) and (k, i) for item i's marginal set),
    removes the rejected pairs and repeats. Because c only falls, S_m = {pairs of S_0 with
    t <= c_(m-1)}: the state is one number, which is what each unrolled step carries. The same
    draws serve every step (csranks draws afresh each time; with fixed draws the sets are
    monotone in the coverage). `steps` steps are unrolled; stopping early is conservative.
-#}
{% macro rank_set_step_down_ctes(name, estimates, partners, settings) -%}
{%- set slots = 2 * settings.candidates -%}
{%- set infinite = '1e308' -%}
{%- set minus_infinite = '-1e308' -%}
{{ name }}_step_0 as (

    select
        group_key,
        item_number,
        {{ infinite }} as marginal_critical_value,
        {{ infinite }} as simultaneous_critical_value

    from {{ estimates }}

)
{%- for step in range(1, settings.steps + 1) %},

-- step {{ step }}: each draw's statistic over the pairs not rejected at step {{ step - 1 }}
{{ name }}_step_{{ step }}_candidates as (

    select
        partners.group_key,
        partners.item_number,
        partners.draw,
        partners.outside_bound,
        {%- if step == 1 %}
            {#- every critical value starts infinite and every |t| is at most 1e300: no pair is
                rejected yet, and both statistics are the largest |D| over the partners -#}
            coalesce(greatest(
                {%- for slot in range(1, slots + 1) %}
                    abs(partners.d_{{ slot }}) {%- if not loop.last %},{% endif %}
                {%- endfor %}
            ), {{ minus_infinite }}) as marginal_exact
        {%- else %}
        {%- for kind in ('marginal', 'simultaneous') %}
            coalesce(greatest(
                {%- for slot in range(1, slots + 1) %}
                    {{ rank_set_pair_statistic('partners.t_' ~ slot, 'partners.d_' ~ slot,
                        'previous.' ~ kind ~ '_critical_value') }}
                    {%- if not loop.last %},{% endif %}
                {%- endfor %}
            ), {{ minus_infinite }}) as {{ kind }}_exact {%- if not loop.last %},{% endif %}
        {%- endfor %}
        {%- endif %}

    from {{ partners }} as partners
    inner join {{ name }}_step_{{ step - 1 }} as previous
        on
            partners.group_key = previous.group_key
            and partners.item_number = previous.item_number

),

{{ name }}_step_{{ step }}_draws as (

    select
        group_key,
        item_number,
        draw,
        greatest(marginal_exact, outside_bound) as marginal_statistic,
        greatest({{ 'marginal_exact' if step == 1 else 'simultaneous_exact' }}, outside_bound)
            as simultaneous_statistic,
        case when outside_bound > marginal_exact then 1.0 else 0.0 end as marginal_bound_decided

    from {{ name }}_step_{{ step }}_candidates

),
{{ name }}_step_{{ step }}_marginal as (

    select
        group_key,
        item_number,
        {{ linear_quantile('marginal_statistic', settings.coverage) }} as marginal_critical_value,
        avg(marginal_bound_decided) as marginal_bound_share

    from {{ name }}_step_{{ step }}_draws
    group by group_key, item_number

),

{{ name }}_step_{{ step }}_simultaneous as (

    select
        group_key,
        {{ linear_quantile('draw_statistic', settings.coverage) }} as simultaneous_critical_value

    from (
        select
            group_key,
            draw,
            max(simultaneous_statistic) as draw_statistic
        from {{ name }}_step_{{ step }}_draws
        group by group_key, draw
    ) as per_draw
    group by group_key

),

{{ name }}_step_{{ step }} as (

    select
        previous.group_key,
        previous.item_number,
        coalesce(marginal.marginal_critical_value, {{ infinite }}) as marginal_critical_value,
        coalesce(simultaneous.simultaneous_critical_value, {{ infinite }}) as simultaneous_critical_value,
        marginal.marginal_bound_share,
        previous.marginal_critical_value as marginal_critical_value_previous,
        previous.simultaneous_critical_value as simultaneous_critical_value_previous

    from {{ name }}_step_{{ step - 1 }} as previous
    left join {{ name }}_step_{{ step }}_marginal as marginal
        on
            previous.group_key = marginal.group_key
            and previous.item_number = marginal.item_number
    left join {{ name }}_step_{{ step }}_simultaneous as simultaneous
        on previous.group_key = simultaneous.group_key

)
{%- endfor %},

{{ name }} as (

    select * from {{ name }}_step_{{ settings.steps }}

)
{%- endmacro %}

