{#-
  Typed projection of JSON document keys for the coder-eval report staging models.
  `fields` is a list of tuples (column_name, json_path, sql_type[, default_sql]):
    - sql_type 'json' keeps the JSON fragment (object / array) as text;
    - a 4th element is the value used when the KEY IS ABSENT (an older writer; pydantic applies
      the model default). A present key with JSON null stays NULL.
  Every value goes through try_cast: a value that does not cast becomes NULL and its column
  name is listed by coder_eval_invalid_fields (never dropped).
-#}
{% macro coder_eval_typed_columns(doc, fields) -%}
    {%- for f in fields %}
        {%- if f[2] == 'json' %}
    cast({{ evalhouse.json_fragment(doc, f[1]) }} as {{ dbt.type_string() }}) as {{ f[0] }}
        {%- elif f | length > 3 %}
    case
        when {{ evalhouse.json_has(doc, f[1]) }} then {{ evalhouse.try_cast_text(evalhouse.json_text(doc, f[1]), f[2]) }}
        else cast({{ f[3] }} as {{ evalhouse.engine_type(f[2]) }})
    end as {{ f[0] }}
        {%- else %}
    {{ evalhouse.try_cast_text(evalhouse.json_text(doc, f[1]), f[2]) }} as {{ f[0] }}
        {%- endif %}{{ ',' if not loop.last }}
    {%- endfor %}
{%- endmacro %}

{#- Comma-separated names of the fields whose present, non-null value did not cast (NULL when none). -#}
{% macro coder_eval_invalid_fields(doc, fields) -%}
    nullif(concat_ws(', '
    {%- for f in fields if f[2] not in ('json', 'varchar') %},
        case
            when {{ evalhouse.json_text(doc, f[1]) }} is not null
                and {{ evalhouse.try_cast_text(evalhouse.json_text(doc, f[1]), f[2]) }} is null then '{{ f[0] }}'
        end
    {%- endfor %}), '')
{%- endmacro %}

{#-
  The typed columns of `fields` followed by invalid_fields (names of the fields that did not
  cast) and has_invalid_fields: the one column block every coder-eval report staging model ends with.
-#}
{% macro coder_eval_typed_block(doc, fields) -%}
    {{ coder_eval_typed_columns(doc, fields) }},
    {{ coder_eval_invalid_fields(doc, fields) }} as invalid_fields,
    {{ coder_eval_invalid_fields(doc, fields) }} is not null as has_invalid_fields
{%- endmacro %}

{#-
  Provenance of a raw.ce_*_docs row as carried by every report staging model; `dir_keys` lists the
  path-derived keys kept as dir_<key> (e.g. ['variant_id', 'suite_id']).
-#}
{% macro coder_eval_report_provenance(alias, dir_keys=[]) -%}
    {{ alias }}.load_id,
    {{ alias }}.loaded_at,
    {{ alias }}.source_file,
    {{ alias }}.run_dir,
    {{ alias }}.run_id,
    {{ alias }}.document_sha256
    {%- for k in dir_keys %},
    {{ alias }}.{{ k }} as dir_{{ k }}
    {%- endfor %}
{%- endmacro %}

{#- The VariantSummary fields shared by variant.json and experiment.json variant_aggregates. -#}
{% macro coder_eval_variant_summary_fields() -%}
    {%- do return([
        ('variant_id', '$.variant_id', 'varchar'),
        ('tasks_run', '$.tasks_run', 'bigint'),
        ('tasks_succeeded', '$.tasks_succeeded', 'bigint'),
        ('tasks_failed', '$.tasks_failed', 'bigint'),
        ('tasks_error', '$.tasks_error', 'bigint'),
        ('tasks_not_graded', '$.tasks_not_graded', 'bigint', "0"),
        ('tasks_measured', '$.tasks_measured', 'bigint', "0"),
        ('average_score', '$.average_score', 'double'),
        ('average_duration', '$.average_duration', 'double'),
        ('total_tokens', '$.total_tokens', 'bigint'),
        ('replicate_count', '$.replicate_count', 'bigint', "1"),
        ('tasks_token_budget_exceeded', '$.tasks_token_budget_exceeded', 'bigint', "0"),
        ('tasks_cost_budget_exceeded', '$.tasks_cost_budget_exceeded', 'bigint', "0"),
        ('tasks_graded_stored', '$.tasks_graded', 'bigint'),
        ('pass_rate_stored', '$.pass_rate', 'double')
    ]) -%}
{%- endmacro %}
