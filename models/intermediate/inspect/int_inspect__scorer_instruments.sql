{#-
  One row per (inspect_ai log, scorer): what the scorer measured with, as far as the log shows it (R35). Its
  arguments as the eval states them (`eval.scorers[].options`, from the member int_inspect__logs reads: header.json,
  or a killed run's journal start), and the models it called while it scored: the model events inside a span of
  type `scorer` named for it, or inside any span opened below one (model_graded_qa's grader, an agent judge's
  tools), in the same sample and epoch, distinct and sorted. A scorer the events show but `eval.scorers` does not
  name (or the reverse) has NULL for what the log leaves out.
-#}
with recursive logs as (select * from {{ ref('int_inspect__logs') }}),

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

span_begins as (
    select
        {{ qualified('e', inspect_sample_grain()) }},
        coalesce(e.marked_span_id, e.span_id) as span_id,
        e.span_parent_id,
        e.span_type,
        e.span_name
    from events as e
    where e.event_kind = 'span_begin'
),

scorer_spans as (
    select
        {{ qualified('s', inspect_sample_grain()) }},
        s.span_id,
        s.span_name as scorer
    from span_begins as s
    where s.span_type = 'scorer'
),

-- each scorer span with itself and every span opened below it, however deep (an agent judge's tool spans); a
-- sample's spans only, and at most 64 levels, so that a log whose parent links form a cycle still ends
span_tree as (
    select
        {{ qualified('s', inspect_sample_grain()) }},
        s.span_id as scorer_span_id,
        s.span_id,
        0 as depth
    from scorer_spans as s
    union all
    select
        {{ qualified('c', inspect_sample_grain()) }},
        t.scorer_span_id,
        c.span_id,
        t.depth + 1 as depth
    from span_tree as t
    inner join span_begins as c
        on {{ same_keys('t', 'c', inspect_sample_grain()) }} and t.span_id = c.span_parent_id
    where t.depth < 64
),

called as (
    select distinct
        s.source_file,
        s.scorer,
        e.model
    from scorer_spans as s
    inner join span_tree as t
        on {{ same_keys('s', 't', inspect_sample_grain()) }} and s.span_id = t.scorer_span_id
    inner join events as e
        on {{ same_keys('t', 'e', inspect_sample_grain()) }} and t.span_id = e.span_id
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
