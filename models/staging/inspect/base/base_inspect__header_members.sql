{#-
  The header-like members of inspect_ai logs: header.json (a finished log) and _journal/start.json (written at the
  start; a killed run has only this), base_inspect__members where member_kind is header or start. A base model:
  stg_inspect__logs and stg_inspect__model_roles read it.
-#}
with members as (select * from {{ ref('base_inspect__members') }})

select m.*
from members as m
where m.member_kind in ('header', 'start')
