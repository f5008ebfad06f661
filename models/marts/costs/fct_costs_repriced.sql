{#- The public cost fact: int_costs__repriced under its contract (types, provenance, tests). -#}
select * from {{ ref('int_costs__repriced') }}
