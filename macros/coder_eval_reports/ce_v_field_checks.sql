{#-
  UNION ALL of one SELECT per VariantAggregate field for int_ce_v__variant_json_checks:
  fields = [(field_name, stored_expr, task_grain_expr, replicate_grain_expr, key_present_expr)]
  over `stored as s left join int_ce_v__variant_recomputed as r`.
-#}
{% macro ce_v_field_checks(fields) -%}
    {%- for f in fields %}
    select
        s.document_kind,
        s.source_file,
        s.run_id,
        s.variant_id,
        '{{ f[0] }}' as field_name,
        cast({{ f[1] }} as double) as stored_value,
        cast({{ f[2] }} as double) as task_grain_value,
        cast({{ f[3] }} as double) as replicate_grain_value,
        r.run_id is not null as has_replicates,
        coalesce({{ ce_v_same(f[1], f[2]) }}, false) as matches_task_grain,
        coalesce({{ ce_v_same(f[1], f[3]) }}, false) as matches_replicate_grain
    from stored as s
    left join {{ ref('int_ce_v__variant_recomputed') }} as r
        on s.run_id = r.run_id and s.variant_id = r.variant_id
    where {{ f[4] }}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
{%- endmacro %}
