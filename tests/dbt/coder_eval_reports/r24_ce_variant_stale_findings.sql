{{ config(severity='warn') }}
-- R24 (what the logs claim): stored variant.json / experiment.json values that match no
-- recomputation from the current replicate rows (stale). Each row is also in data_quality_findings.
select * from {{ ref('int_dq__r24_ce_variant_stale') }}
