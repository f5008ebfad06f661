{#-
  The sample members of inspect_ai logs (a .eval log's samples/<id>_epoch_<n>.json, a .json log's samples[] entries):
  base_inspect__members where member_kind = 'sample'. A base model: the per-sample staging models read it.
-#}
with members as (select * from {{ ref('base_inspect__members') }})

select m.*
from members as m
where m.member_kind = 'sample'
