-- R24: a stale variant.json is flagged, never silently preferred: coder_eval_variant_rates.variant_json_is_stale
-- is true exactly for the variant.json documents with an R24 data-quality finding (false for the
-- others, NULL only when no variant.json was loaded).
with stale_docs as (
    select distinct f.source_file
    from {{ ref('int_dq__coder_eval_r24_variant_stale') }} as f
)

select
    v.run_id,
    v.variant_id,
    v.system_prompt_regime,
    v.variant_json_source_file,
    v.variant_json_is_stale,
    s.source_file is not null as has_r24_finding
from {{ ref('coder_eval_variant_rates') }} as v
left join stale_docs as s
    on v.variant_json_source_file = s.source_file
where
    (v.variant_json_source_file is not null and v.variant_json_is_stale is null)
    or v.variant_json_is_stale is distinct from (
        case when v.variant_json_source_file is not null then s.source_file is not null end
    )
