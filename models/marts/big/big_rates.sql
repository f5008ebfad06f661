{#- Fix and refactor runs: one row per (kind, model, with_brain, with_plan), from int_big__stratified_rates. -#}
select * from {{ ref('int_big__stratified_rates') }}
where kind in ('fix', 'refactor')
