{#-
  One row per source record or document that breaks a rule about what the logs claim: the union
  of every int_dq__* model (each has exactly rule_id, source_family, source_file, source_line,
  detail). To add your family's checks, append the model name to `dq_models` below (and keep the
  model's own `is_empty` test at severity warn in its yml).
-#}
{%- set dq_models = [
    'int_dq__r03_kind_vs_id_prefix',
    'int_dq__r04_change_vs_detail',
    'int_dq__r05_regress_vs_misses',
    'int_dq__r12_big_naive_stamps',
    'int_dq__big_uncastable_values',
    'int_dq__big_foreign_records',
    'int_dq__load_quarantine',
    'int_dq__matrix_uncastable_values',
    'int_dq__matrix_foreign_records',
    'int_dq__r08_unmapped_check_kind',
    'int_dq__r12_matrix_naive_stamps',
    'int_dq__layered_uncastable_values',
    'int_dq__layered_foreign_records',
    'int_dq__r12_layered_naive_stamps',
    'int_dq__r15_ce_run_counts',
    'int_dq__r16_ce_pass_rate',
    'int_dq__r22_ce_turn_tokens',
    'int_dq__r23_ce_total_cost',
    'int_dq__r21_ce_variant_grain',
    'int_dq__r24_ce_variant_stale',
    'int_dq__r15_ce_report_counts',
    'int_dq__ce_run_name_collisions',
    'int_dq__r27_logged_cost_audit',
] -%}

with

findings as (
    {%- for m in dq_models %}
        select
            '{{ m }}' as check_model,
            rule_id,
            source_family,
            source_file,
            source_line,
            detail
        from {{ ref(m) }}
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}
)

select
    cast(rule_id as varchar) as rule_id,
    cast(source_family as varchar) as source_family,
    cast(source_file as varchar) as source_file,
    cast(source_line as bigint) as source_line,
    cast(detail as varchar) as detail,
    cast(check_model as varchar) as check_model
from findings
