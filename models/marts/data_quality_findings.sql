{#-
  One row per source record or document that breaks a rule about what the logs claim: the union
  of every int_dq__* model (each has exactly rule_id, source_family, source_file, source_line,
  detail). To add your family's checks, append the model name to `dq_models` below (and keep the
  model's own `is_empty` test at severity warn in its yml).
-#}
{%- set dq_models = [
    'int_dq__big_r03_kind_vs_id_prefix',
    'int_dq__big_r04_change_vs_detail',
    'int_dq__big_r05_regress_vs_misses',
    'int_dq__big_r12_naive_stamps',
    'int_dq__big_uncastable_values',
    'int_dq__big_foreign_records',
    'int_dq__raw_load_quarantine',
    'int_dq__matrix_uncastable_values',
    'int_dq__matrix_foreign_records',
    'int_dq__matrix_r08_unmapped_check_kind',
    'int_dq__matrix_r12_naive_stamps',
    'int_dq__layered_uncastable_values',
    'int_dq__layered_foreign_records',
    'int_dq__layered_r12_naive_stamps',
    'int_dq__coder_eval_r15_run_counts',
    'int_dq__coder_eval_r16_pass_rate',
    'int_dq__coder_eval_r22_turn_tokens',
    'int_dq__coder_eval_r23_total_cost',
    'int_dq__coder_eval_r21_variant_grain',
    'int_dq__coder_eval_r24_variant_stale',
    'int_dq__coder_eval_r15_report_counts',
    'int_dq__coder_eval_run_name_collisions',
    'int_dq__coder_eval_r37_failure_without_verdict',
    'int_dq__coder_eval_r38_replicate_not_in_run_json',
    'int_dq__coder_eval_r39_criteria_differ',
    'int_dq__costs_r27_logged_cost_audit',
    'int_dq__inspect_r28_stored_metric_disagrees',
    'int_dq__inspect_r35_instruments_differ',
    'int_dq__inspect_r36_samples_not_logged',
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
    cast(rule_id as {{ dbt.type_string() }}) as rule_id,
    cast(source_family as {{ dbt.type_string() }}) as source_family,
    cast(source_file as {{ dbt.type_string() }}) as source_file,
    cast(source_line as bigint) as source_line,
    cast(detail as {{ dbt.type_string() }}) as detail,
    cast(check_model as {{ dbt.type_string() }}) as check_model
from findings
