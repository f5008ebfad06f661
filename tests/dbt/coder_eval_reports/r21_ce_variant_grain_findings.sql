{{ config(severity='warn') }}
-- R21 (what the logs claim): stored variant.json / experiment.json values that are TASK grain and
-- so differ from the replicate-grain recomputation. Each row is also in data_quality_findings.
select * from {{ ref('int_dq__r21_ce_variant_grain') }}
