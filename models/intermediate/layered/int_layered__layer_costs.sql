{#-
  One row per (measurement record, layer the record reports a cost or latency for): standalone rows report
  their own layer; `total` rows report l1, l2, l3 and the whole pipeline (`total`). The model is the one
  occupying that layer (NULL for the whole pipeline), normalised (model_raw: as logged). task_id is the scenario: the cluster of the
  clustered standard errors in layered_layer_costs (R25).
-#}
with m as (
    select * from {{ ref('int_layered__measurements') }}
),

layers as (
    select
        m.measurement_key,
        m.pipeline,
        m.task_id,
        m.measurement,
        'l1' as layer,
        m.l1 as model,
        m.l1_cost as cost_usd_logged,
        m.l1_latency as latency_s,
        m.stamp
    from m
    where m.l1_cost is not null or m.l1_latency is not null
    union all
    select
        m.measurement_key,
        m.pipeline,
        m.task_id,
        m.measurement,
        'l2' as layer,
        m.l2 as model,
        m.l2_cost as cost_usd_logged,
        m.l2_latency as latency_s,
        m.stamp
    from m
    where m.l2_cost is not null or m.l2_latency is not null
    union all
    select
        m.measurement_key,
        m.pipeline,
        m.task_id,
        m.measurement,
        'l3' as layer,
        m.l3 as model,
        m.l3_cost as cost_usd_logged,
        m.l3_latency as latency_s,
        m.stamp
    from m
    where m.l3_cost is not null or m.l3_latency is not null
    union all
    select
        m.measurement_key,
        m.pipeline,
        m.task_id,
        m.measurement,
        'total' as layer,
        cast(null as {{ dbt.type_string() }}) as model,
        m.total_cost as cost_usd_logged,
        m.total_latency as latency_s,
        m.stamp
    from m
    where m.total_cost is not null or m.total_latency is not null
),

-- one model key everywhere: the rate card's id (model_aliases seed), the logged spelling beside it
names as {{ model_name_map('layers', 'model', ref('model_aliases')) }}

select
    l.measurement_key,
    l.pipeline,
    l.task_id,
    l.measurement,
    l.layer,
    n.model,
    l.model as model_raw,
    l.cost_usd_logged,
    l.latency_s,
    l.stamp
from layers as l
left join names as n
    on l.model = n.model_raw
