{#-
  One row per (cell, type, evidence_class, difficulty): never a row across evidence classes (R08/R09).
  The turns of one conversation script (cluster_key = scenario_id within the cell) form one cluster: the
  interval is Wilson at the design-effect sample size with t(C-1) (contract: clustered binary rates). Turns whose check outcome is NULL are counted in n_outcome_missing and in neither side.
-#}
{%- set stratum = ['cell', 'turn_type', 'evidence_class', 'difficulty'] %}

with turns as (
    select * from {{ ref('fct_matrix_turns') }}
    where evidence_class is not null
),

clusters as (
    select
        {{ qualified('t', stratum) }},
        t.cluster_key,
        count(t.check_passed) as cluster_n,
        count(*) filter (where t.check_passed) as cluster_sum,
        count(*) filter (where t.check_passed is null) as cluster_missing,
        min(t.stamp) as first_stamp,
        max(t.stamp) as last_stamp
    from turns as t
    group by {{ qualified('t', stratum) }}, t.cluster_key
),

strata as (
    select
        {{ qualified('c', stratum) }},
        sum(c.cluster_n) as n_turns,
        sum(c.cluster_sum) as n_passed,
        sum(c.cluster_missing) as n_outcome_missing,
        count(*) filter (where c.cluster_n > 0) as n_clusters,
        {{ cluster_se('case when c.cluster_n > 0 then c.cluster_sum end', 'case when c.cluster_n > 0 then c.cluster_n end') }}
            as se_clustered,
        min(c.first_stamp) as first_stamp,
        max(c.last_stamp) as last_stamp
    from clusters as c
    group by {{ qualified('c', stratum) }}
)

select
    s.cell,
    s.turn_type as type,
    s.evidence_class,
    s.difficulty,
    cast(s.n_turns as bigint) as n_turns,
    cast(s.n_passed as bigint) as n_passed,
    cast(s.n_outcome_missing as bigint) as n_outcome_missing,
    cast(s.n_passed as double) / nullif(s.n_turns, 0) as pass_rate,
    {{ clustered_rate_bound('s.n_passed', 's.n_turns', 's.se_clustered', 's.n_clusters', 'low') }} as ci_low,
    {{ clustered_rate_bound('s.n_passed', 's.n_turns', 's.se_clustered', 's.n_clusters', 'high') }} as ci_high,
    cast({{ ci_null_reason('cast(s.n_passed as double) / nullif(s.n_turns, 0)', 's.n_clusters') }} as {{ dbt.type_string() }}) as ci_reason,
    {{ effective_n('s.n_passed', 's.n_turns', 's.se_clustered') }} as n_effective,
    {{ wilson_low('s.n_passed', 's.n_turns') }} as ci_low_unclustered,
    {{ wilson_high('s.n_passed', 's.n_turns') }} as ci_high_unclustered,
    cast(s.n_clusters as bigint) as n_clusters,
    s.se_clustered,
    s.first_stamp,
    s.last_stamp
from strata as s
