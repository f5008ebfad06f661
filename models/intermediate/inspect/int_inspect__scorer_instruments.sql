{#-
  One row per (inspect_ai log, scorer): what the scorer measured with, as far as the log shows it (R35). Its
  arguments as the eval states them (`eval.scorers[].options`, from the member int_inspect__logs reads: header.json,
  or a killed run's journal start), and the models it called while it scored: the model events inside a span of
  type `scorer` named for it, or inside a span opened in one (model_graded_qa's grader), distinct and sorted. A
  scorer the events show but `eval.scorers` does not name (or the reverse) has NULL for what the log leaves out.
-#}
with logs as (select * from {{ ref('int_inspect__logs') }}),

events as (select * from {{ ref('stg_inspect__events') }}),

declared as (
    select
        s.source_file,
        s.scorer,
        min(s.scorer_options_json) as scorer_options_json
    from {{ ref('stg_inspect__scorers') }} as s
    inner join logs as l
        on
            s.source_file = l.source_file
            and s.member_kind = case when l.has_header then 'header' else 'start' end
    group by s.source_file, s.scorer
),

scorer_spans as (
    select
        e.source_file,
        e.span_id,
        e.span_name as scorer
    from events as e
    where e.event_kind = 'span_begin' and e.span_type = 'scorer'
),

-- a scorer's span and the spans opened in it
spans as (
    select
        s.source_file,
        s.span_id,
        s.scorer
    from scorer_spans as s
    union
    select
        s.source_file,
        e.span_id,
        s.scorer
    from scorer_spans as s
    inner join events as e
        on s.source_file = e.source_file and s.span_id = e.span_parent_id
    where e.event_kind = 'span_begin'
),

called as (
    select distinct
        s.source_file,
        s.scorer,
        e.model
    from spans as s
    inner join events as e
        on s.source_file = e.source_file and s.span_id = e.span_id
    where e.event_kind = 'model' and e.model is not null
),

models_called as (
    select
        c.source_file,
        c.scorer,
        {{ ordered_string_agg('c.model', ', ', 'c.model') }} as scorer_models
    from called as c
    group by c.source_file, c.scorer
),

scored as (
    select
        s.source_file,
        s.scorer
    from scorer_spans as s
    union
    select
        d.source_file,
        d.scorer
    from declared as d
)

select
    s.source_file,
    s.scorer,
    d.scorer_options_json,
    m.scorer_models
from scored as s
left join declared as d on s.source_file = d.source_file and s.scorer = d.scorer
left join models_called as m on s.source_file = m.source_file and s.scorer = m.scorer
