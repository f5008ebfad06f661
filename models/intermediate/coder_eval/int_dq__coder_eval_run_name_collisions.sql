{#-
  Loader finding (what the logs claim): one row per coder-eval run whose directory name was already taken by
  another, different run directory. The loader gave it the id `<name>@<8 hex of its path>` so the two runs are
  never pooled; the finding names both so the user can rename one.
-#}
with runs as (select * from {{ ref('stg_coder_eval__runs') }}),

renamed as (
    select * from runs
    where instr(run_id, '@') > 0
)

select
    {{ dq_finding('LOAD', 'coder_eval', 'r', line=false) }},
    'another run directory is also named ''' || split_part(r.run_id, '@', 1) || ''' ('
    || coalesce(o.run_dir, 'no longer loaded') || '): this run''s id is ''' || r.run_id
    || ''', so the two are never pooled; rename one directory to give it a name of its own' as detail
from renamed as r
left join runs as o
    on split_part(r.run_id, '@', 1) = o.run_id
