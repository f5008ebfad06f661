{#-
  R12 guard body (what the logs claim), shared by the brownfield families: one finding row per
  line of `relation` (a staging model with stamp_raw, stamp, stamp_is_naive) whose stamp is
  missing, does not parse, or is naive (no UTC offset; read as UTC).
-#}
{% macro naive_stamp_findings(relation, source_family, skip_foreign=false) -%}
select
    'R12' as rule_id,
    '{{ source_family }}' as source_family,
    t.source_file,
    t.source_line,
    case
        when t.stamp_raw is null then 'stamp is missing'
        when t.stamp is null then 'stamp ''' || t.stamp_raw || ''' does not parse as a timestamp'
        else 'stamp ''' || t.stamp_raw || ''' has no UTC offset (read as UTC)'
    end as detail
from {{ relation }} as t
where
    (t.stamp is null or t.stamp_is_naive)
    {%- if skip_foreign %}
    -- a foreign record (not one of the family's) is its own finding, not a stamp problem
    and not coalesce(t.is_foreign_record, false)
    {%- endif %}
{%- endmacro %}
