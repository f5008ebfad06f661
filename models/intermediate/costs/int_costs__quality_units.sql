{#-
  One row per scoring unit of every family that has both a binary success and a best-known cost, with
  the comparable stratum it belongs to, its arm (the configuration compared), its cluster and the
  unit's best-known cost (the sum of the cost_usd_best of its cost records, fct_costs_repriced.unit_key):
  - brownfield: a fix / refactor run; stratum = kind; arm = model x with_brain x with_plan; cluster =
    scenario. Solved = change = 1 and regress = 1 (task done, nothing broken: the R06 corner is a
    failure); NULL when either is unmeasured. A binary indicator defined here, not a reading of
    `change` as a pass rate (R01).
  - coder-eval: a graded replicate; stratum = run (its variants ran the same tasks); arm = variant;
    cluster = task. Solved = status category `succeeded` (errored replicates stay in the denominator).
  - matrix: a turn with an evidence class and a check outcome; stratum = turn type / evidence class
    (never pooled, R08); arm = cell; cluster = conversation script. Solved = check passed.
  Layered end-to-end rows log only costs the audit (R27) cannot confirm and no token counts, so the
  family has no best-known cost per pipeline run and is not here.
-#}
with costs as (select * from {{ ref('int_costs__repriced') }}),

unit_costs as (
    select
        c.source_family,
        c.unit_key,
        count(*) as n_cost_records,
        sum(c.cost_usd_best) as cost_usd_best,
        coalesce(bool_and(c.cost_best_complete), false) as cost_best_complete,
        count(case when c.cost_is_estimate then 1 end) as n_estimates,
        min(c.rate_row_date) as rate_row_first_date,
        max(c.rate_row_date) as rate_row_last_date
    from costs as c
    group by c.source_family, c.unit_key
),

big_units as (
    select
        'big' as source_family,
        r.kind as stratum,
        r.model
        || case when r.with_brain then ' | brain on' when not r.with_brain then ' | brain off' else ' | brain ?' end
        || case when r.with_plan then ' | plan on' when not r.with_plan then ' | plan off' else ' | plan ?' end
            as arm,
        r.model,
        r.run_key as unit_key,
        r.scenario_id as cluster_key,
        case
            when r.change is not null and r.regress is not null then r.change >= 1 - 1e-9 and r.regress >= 1 - 1e-9
        end as is_success,
        r.stamp
    from {{ ref('int_big__runs') }} as r
    where r.kind in ('fix', 'refactor') and r.model is not null
),

coder_eval_units as (
    select
        'coder_eval' as source_family,
        r.run_id as stratum,
        r.variant_id as arm,
        r.model,
        r.replicate_key as unit_key,
        r.task_id as cluster_key,
        r.is_succeeded as is_success,
        r.started_at as stamp
    from {{ ref('int_coder_eval__replicates') }} as r
    where r.is_graded
),

matrix_units as (
    select
        'matrix' as source_family,
        t.turn_type || ' / ' || t.evidence_class as stratum,
        t.cell as arm,
        cast(null as {{ dbt.type_string() }}) as model,
        t.turn_key as unit_key,
        t.cluster_key,
        t.check_passed as is_success,
        t.stamp
    from {{ ref('int_matrix__turns') }} as t
    where t.evidence_class is not null and t.check_passed is not null
),

units as (
    select * from big_units
    union all
    select * from coder_eval_units
    union all
    select * from matrix_units
)

select
    u.source_family,
    u.stratum,
    u.arm,
    u.model,
    u.unit_key,
    u.cluster_key,
    u.is_success,
    u.stamp,
    uc.cost_usd_best,
    coalesce(uc.cost_best_complete, false) and uc.cost_usd_best is not null as cost_known,
    coalesce(uc.n_estimates, 0) as n_estimates,
    coalesce(uc.n_cost_records, 0) as n_cost_records,
    uc.rate_row_first_date,
    uc.rate_row_last_date
from units as u
left join unit_costs as uc
    on
        {{ same_keys('u', 'uc', ['source_family', 'unit_key']) }}
