{#-
  R33 (what evalhouse computes): grader spend is never counted as the evaluated model's, and no token is counted
  twice or lost. In inspect_spend:
  - an `agent` row is the log's own model and no role's;
  - a row with a role is never `agent`;
  - per (log, model), the tokens of all its rows equal what the samples' model_usage states for that model
    (role_usage repeats a role's calls under its model: counting both would double them), over the sample runs
    that are the log's own (a run carried over from the log that recorded it first is counted there).
-#}
with spend as (select * from {{ ref('inspect_spend') }}),

stated as (
    select
        u.source_file,
        u.usage_key as model_raw,
        sum(coalesce(u.total_tokens, 0)) as total_tokens,
        sum(coalesce(u.output_tokens, 0)) as output_tokens
    from {{ ref('stg_inspect__sample_usage') }} as u
    inner join {{ ref('int_inspect__sample_executions') }} as e
        on u.source_file = e.source_file and u.sample_id = e.sample_id and u.epoch = e.epoch
    where u.usage_scope = 'model' and not e.is_carried_over
    group by u.source_file, u.usage_key
),

counted as (
    select
        s.source_file,
        s.model_raw,
        sum(coalesce(s.total_tokens, 0)) as total_tokens,
        sum(coalesce(s.output_tokens, 0)) as output_tokens
    from spend as s
    group by s.source_file, s.model_raw
)

select
    s.source_file,
    s.spend_kind,
    s.role,
    s.model_raw,
    'agent row for a model other than the log''s, or with a role' as problem
from spend as s
where s.spend_kind = 'agent' and (s.model_raw is distinct from s.log_model or s.role is not null)
union all
select
    s.source_file,
    s.spend_kind,
    s.role,
    s.model_raw,
    'a role''s spend counted as agent spend' as problem
from spend as s
where s.role is not null and s.spend_kind in ('agent', 'unattributed')
union all
select
    coalesce(c.source_file, t.source_file) as source_file,
    cast(null as {{ dbt.type_string() }}) as spend_kind,
    cast(null as {{ dbt.type_string() }}) as role,
    coalesce(c.model_raw, t.model_raw) as model_raw,
    'tokens counted ' || cast(coalesce(c.total_tokens, 0) as {{ dbt.type_string() }}) || ' / ' || cast(coalesce(c.output_tokens, 0) as {{ dbt.type_string() }})
    || ' (total / output) where model_usage states ' || cast(coalesce(t.total_tokens, 0) as {{ dbt.type_string() }}) || ' / '
    || cast(coalesce(t.output_tokens, 0) as {{ dbt.type_string() }}) as problem
from counted as c
full outer join stated as t
    on c.source_file = t.source_file and c.model_raw = t.model_raw
where
    coalesce(c.total_tokens, 0) <> coalesce(t.total_tokens, 0)
    or coalesce(c.output_tokens, 0) <> coalesce(t.output_tokens, 0)
