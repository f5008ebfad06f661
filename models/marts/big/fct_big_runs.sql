{#- One row per logged brownfield run (a line of logs_big/*.jsonl), typed, with provenance. -#}
{{ pairs_incremental_config("ref('int_big__runs')") }}
{#- each column cast to its contract type (one line each: the mart's columns, in order) -#}
{%- set columns = [
    ('run_key', dbt.type_string()),
    ('scenario_id', dbt.type_string()),
    ('scenario_name', dbt.type_string()),
    ('kind', dbt.type_string()),
    ('kind_raw', dbt.type_string()),
    ('model', dbt.type_string()),
    ('model_raw', dbt.type_string()),
    ('with_brain', 'boolean'),
    ('with_plan', 'boolean'),
    ('difficulty', 'integer'),
    ('change', 'double'),
    ('change_assertions_total', 'bigint'),
    ('change_assertions_passed', 'bigint'),
    ('assertion_pass_share', 'double'),
    ('regress', 'double'),
    ('regress_miss_count', 'bigint'),
    ('done_but_broke', 'boolean'),
    ('wall_s', 'double'),
    ('calls', 'bigint'),
    ('cost_usd_logged', 'double'),
    ('stamp', type_timestamptz()),
    ('stamp_is_naive', 'boolean'),
    ('record_format', dbt.type_string()),
    ('is_repaired', 'boolean'),
    ('source_file', dbt.type_string()),
    ('source_line', 'bigint'),
    ('load_id', dbt.type_string()),
    ('record_sha256', dbt.type_string())
] %}

with

runs as (
    select int_runs.* from {{ ref('int_big__runs') }} as int_runs
    {{ only_new_pairs('int_runs') }}
)

select
    {%- for name, type in columns %}
        cast({{ name }} as {{ type }}) as {{ name }}{% if not loop.last %},{% endif %}
    {%- endfor %}
from runs
