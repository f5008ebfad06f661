{#-
  Cell vs cell (chat x coder model pairs), paired on the conversation scripts both cells ran, within one
  (type, evidence_class): never across evidence classes (R08/R09). Per (cell, script) the pass fraction
  over its turns and reps; d = cell_b - cell_a per script (cell_a sorts first); the mean of d with its
  SE over scripts (one pair per script), the t(C-1) interval, MDD, the paired t-test p-value and Holm /
  BH within the family of all cell pairs of one (type, evidence_class).
-#}
{%- set comparison = ['turn_type', 'evidence_class', 'cell_a', 'cell_b'] %}

with turns as (
    select * from {{ ref('fct_matrix_turns') }}
    where evidence_class is not null and check_passed is not null
),

arms as (
    select
        t.turn_type,
        t.evidence_class,
        t.cell,
        t.cluster_key as script,
        count(*) as n_turns,
        avg(case when t.check_passed then cast(1 as double) else cast(0 as double) end) as pass_fraction,
        min(t.stamp) as first_stamp,
        max(t.stamp) as last_stamp
    from turns as t
    group by t.turn_type, t.evidence_class, t.cell, t.cluster_key
),

pairs as (
    select
        a.turn_type,
        a.evidence_class,
        a.cell as cell_a,
        b.cell as cell_b,
        a.script,
        a.pass_fraction as pass_fraction_a,
        b.pass_fraction as pass_fraction_b,
        b.pass_fraction - a.pass_fraction as pass_fraction_diff,
        a.n_turns as n_turns_a,
        b.n_turns as n_turns_b,
        {{ arm_stamps('a', 'b') }}
    from arms as a
    inner join arms as b
        on
            {{ same_keys('a', 'b', ['turn_type', 'evidence_class', 'script']) }}
            and a.cell < b.cell
),

compared as (
    select
        {{ qualified('p', comparison) }},
        count(*) as n_pairs,
        sum(p.n_turns_a) as n_turns_a,
        sum(p.n_turns_b) as n_turns_b,
        avg(p.pass_fraction_a) as pass_rate_a,
        avg(p.pass_fraction_b) as pass_rate_b,
        avg(p.pass_fraction_diff) as pass_rate_diff_mean,
        {{ cluster_se('p.pass_fraction_diff', '1') }} as pass_rate_diff_se,
        {{ arm_corr('p.pass_fraction_a', 'p.pass_fraction_b') }} as arm_corr,
        {{ arm_stamp_ranges('p') }}
    from pairs as p
    group by {{ qualified('p', comparison) }}
),

tested as (
    select
        c.*,
        'matrix_model_pairs/' || c.turn_type || '/' || c.evidence_class as family,
        {{ paired_t_p('c.pass_rate_diff_mean', 'c.pass_rate_diff_se', 'c.n_pairs - 1') }} as p_value
    from compared as c
),

ranked as (
    select
        t.*,
        count(*) over (partition by t.family) as family_size,
        {{ p_rank_columns('t.p_value', 't.family') }}
    from tested as t
)

select
    r.turn_type as type,
    r.evidence_class,
    r.cell_a,
    r.cell_b,
    cast(r.n_pairs as bigint) as n_pairs,
    cast(r.n_turns_a as bigint) as n_turns_a,
    cast(r.n_turns_b as bigint) as n_turns_b,
    r.pass_rate_a,
    r.pass_rate_b,
    cast(r.family as {{ dbt.type_string() }}) as family,
    cast(r.family_size as bigint) as family_size,
    {{ paired_test_columns('r', 'pass_rate_diff', 'r.n_pairs', 'r.n_pairs') }},
    {{ arm_stamp_columns('r') }}
from ranked as r
