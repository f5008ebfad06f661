{#-
  Cost interface rows for the three-layer pipeline: one row per STANDALONE measurement (l1, l2plan, l2conv, l3)
  that carries token counts; such a row exercises one model (the layer's). `total` rows span three models and
  carry no token counts, so they cannot be repriced and are not here (their logged costs are in
  layered_layer_costs). prompt_tokens includes cached_tokens; no cache-write bucket (0).
-#}
select
    'layered' as source_family,
    m.measurement_key as record_key,
    m.measured_model as model_raw,
    m.stamp as priced_at,
    greatest(m.prompt_tokens - m.cached_tokens, 0) as uncached_input_tokens,
    m.cached_tokens as cache_read_tokens,
    cast(case when m.prompt_tokens is not null then 0 end as bigint) as cache_write_tokens,
    m.completion_tokens as output_tokens,
    case m.layer
        when 'l1' then m.l1_cost
        when 'l2' then m.l2_cost
        when 'l3' then m.l3_cost
    end as cost_usd_logged,
    cast(null as double) as actual_cost_usd,
    m.source_file,
    m.source_line,
    m.load_id,
    m.stamp_is_naive,
    m.pipeline as run_id,
    cast(null as {{ dbt.type_string() }}) as variant_id,
    m.task_id,
    'agent' as spend_kind,
    m.measurement_key as unit_key,
    false as is_no_model_call
from {{ ref('int_layered__measurements') }} as m
where
    m.is_standalone
    and (m.prompt_tokens is not null or m.completion_tokens is not null or m.cached_tokens is not null)
