{#-
  Typing (what the logs claim): one row per (run, field) whose value was present but did not cast
  to its type, or lies outside its range, or whose list is not a list; plus malformed
  change_detail elements and loader repairs. The typed value is NULL in staging; the run is kept.
-#}
{#- the field a finding names, and the staging flag that says its value did not cast or is out of range -#}
{%- set fields = [
    ('difficulty', 'difficulty_invalid'),
    ('with_brain', 'with_brain_invalid'),
    ('with_plan', 'with_plan_invalid'),
    ('change', 'change_invalid'),
    ('change (outside [0, 1])', 'change_out_of_range'),
    ('regress', 'regress_invalid'),
    ('regress (outside [0, 1])', 'regress_out_of_range'),
    ('change_detail (not a list)', 'change_detail_invalid'),
    ('regress_misses (not a list)', 'regress_misses_invalid'),
    ('wall_s', 'wall_s_invalid'),
    ('calls', 'calls_invalid'),
    ('cost', 'cost_invalid'),
] -%}

with

runs as (select * from {{ ref('stg_big__runs') }}),

flags as (
    {%- for field, flag in fields %}
        select
            r.source_file,
            r.source_line,
            '{{ field }}' as field
        from runs as r
        where r.{{ flag }}
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}
),

bad_elements as (
    select
        source_file,
        source_line,
        'change_detail[' || cast(assertion_position as {{ dbt.type_string() }}) || '] is not a [name, boolean] pair: '
        || left(element_json, 200) as detail
    from {{ ref('stg_big__change_assertions') }}
    where element_invalid
),

repairs as (
    select
        source_file,
        source_line,
        'loader repaired the line: ' || repaired as detail
    from runs
    where is_repaired
)

select
    {{ dq_finding('TYPE', 'big') }},
    'value of ' || field || ' did not cast or is out of range; typed as NULL' as detail
from flags
union all
select
    {{ dq_finding('TYPE', 'big') }},
    detail
from bad_elements
union all
select
    {{ dq_finding('LOAD', 'big') }},
    detail
from repairs
