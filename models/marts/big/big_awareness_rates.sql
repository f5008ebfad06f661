{#- Awareness runs alone, never pooled with fix / refactor (R03), from int_big__stratified_rates. -#}
select * from {{ ref('int_big__stratified_rates') }}
where kind = 'awareness'
