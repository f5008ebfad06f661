{#- One row per (inspect_ai log, sample, epoch), under a contract: int_inspect__samples. -#}
select * from {{ ref('int_inspect__samples') }}
