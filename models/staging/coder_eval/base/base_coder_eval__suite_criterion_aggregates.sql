{#-
  One row per element of a suite.json's criterion_aggregates list: the suite document's provenance, the
  list position as aggregate_position, the element as aggregate_json and its criterion_type and description.
  A base model: the per-aggregate staging models (class label stats, confusion entries, metrics, threshold
  checks) read their nested lists from here, so the unnesting is written once.
-#}
with source as (select * from {{ source('coder_eval', 'ce_suite_docs') }})

select
    {{ coder_eval_report_provenance('d', ['variant_id', 'suite_id']) }},
    ca.position as aggregate_position,
    {{ json_text('ca.value', '$.criterion_type') }} as criterion_type,
    {{ json_text('ca.value', '$.description') }} as criterion_description,
    ca.value as aggregate_json
from source as d
{{ json_each('d.document', '$.criterion_aggregates', 'ca') }}
