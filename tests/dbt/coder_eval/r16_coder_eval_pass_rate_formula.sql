{#-
  R16 (computed): pass_rate_recomputed = succeeded / graded with graded = run - not_graded (errors in the
  denominator, ungraded in neither), NULL - never 0 - when nothing was graded or no row was measured; same for
  error_share_recomputed.
-#}
{#- each share and its numerator; the denominator is the rule's: graded = run - not_graded #}
{%- set shares = {'pass_rate': 'tasks_succeeded_recomputed', 'error_share': 'tasks_error_recomputed'} %}

with expected as (
    select
        *,
        {%- for share, numerator in shares.items() %}
            case
                when
                    tasks_not_graded_recomputed > 0 and tasks_measured_recomputed = 0
                    or tasks_run_recomputed - tasks_not_graded_recomputed = 0
                    then null
                else cast({{ numerator }} as double) / (tasks_run_recomputed - tasks_not_graded_recomputed)
            end as {{ share }}_expected{% if not loop.last %},{% endif %}
        {%- endfor %}
    from {{ ref('coder_eval_run_summaries') }}
)

select *
from expected
where
    pass_rate_recomputed is distinct from pass_rate_expected
    or error_share_recomputed is distinct from error_share_expected
