{#-
  One row per (measurement record, layer the record reports a cost or latency for): standalone rows report
  their own layer; `total` rows report l1, l2, l3 and the whole pipeline (`total`). The model is the one
  occupying that layer (NULL for the whole pipeline).
-#}
with m as (
    select * from {{ ref('int_layered__measurements') }}
),

layers as (
    {%- for layer in ['l1', 'l2', 'l3', 'total'] %}
    select
        m.measurement_key,
        m.pipeline,
        m.measurement,
        '{{ layer }}' as layer,
        {% if layer == 'total' %}cast(null as varchar){% else %}m.{{ layer }}{% endif %} as model,
        m.{{ layer }}_cost as cost_usd_logged,
        m.{{ layer }}_latency as latency_s,
        m.stamp
    from m
    where m.{{ layer }}_cost is not null or m.{{ layer }}_latency is not null
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
)

select * from layers
