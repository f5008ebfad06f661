{#-
  One row per (measurement record, layer the record reports a cost or latency for): standalone rows report
  their own layer; `total` rows report l1, l2, l3 and the whole pipeline (`total`). The model is the one
  occupying that layer (NULL for the whole pipeline), normalised (model_raw: as logged). task_id is the scenario: the cluster of the
  clustered standard errors in layered_layer_costs (R25).
-#}
with m as (select * from {{ ref('int_layered__measurements') }}),

-- l1, l2, l3: the model in that layer; total: the whole pipeline (no one model)
layers as (
    {%- for layer in ['l1', 'l2', 'l3', 'total'] %}
        select
            m.measurement_key,
            m.pipeline,
            m.task_id,
            m.measurement,
            '{{ layer }}' as layer,
            {{ 'cast(null as ' ~ dbt.type_string() ~ ')' if layer == 'total' else 'm.' ~ layer }} as model,
            m.{{ layer }}_cost as cost_usd_logged,
            m.{{ layer }}_latency as latency_s,
            m.stamp
        from m
        where m.{{ layer }}_cost is not null or m.{{ layer }}_latency is not null
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}
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
