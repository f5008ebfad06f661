{#-
  One row per (log member, model role) the eval declares (`eval.model_roles`, e.g. grader): the model bound to
  the role. From header.json and from _journal/start.json (a killed run has only the latter).
-#}
with members as (select * from {{ ref('base_inspect__header_members') }})

select
    m.source_file,
    m.member_kind,
    r.key as role,
    {{ json_text('r.value', '$.model') }} as role_model,
    m.load_id
from members as m
{{ json_each_entry('m.document', '$.eval.model_roles', 'r') }}
