{#-
  One row per (log member, scorer) the eval declares (`eval.scorers`): the scorer's name and its arguments as
  stated (`options`, `{}` for a scorer with its defaults). From header.json and from _journal/start.json.
-#}
with members as (select * from {{ ref('base_inspect__header_members') }})

select
    m.source_file,
    m.member_kind,
    sc.position as scorer_position,
    {{ json_text('sc.value', '$.name') }} as scorer,
    {{ json_fragment('sc.value', '$.options') }} as scorer_options_json,
    m.load_id
from members as m
{{ json_each('m.document', '$.eval.scorers', 'sc') }}
