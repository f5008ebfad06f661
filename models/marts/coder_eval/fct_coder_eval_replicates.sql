{#- The public replicate fact: int_coder_eval__replicates under its contract (types, provenance, tests). -#}
select * from {{ ref('int_coder_eval__replicates') }}
