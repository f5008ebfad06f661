{#-
  R12 guard (what the logs claim): one row per layered measurement whose stamp is missing, does not parse, or is naive
  (no UTC offset; read as UTC), so the stamp ranges that include it are uncertain.
-#}
{{ naive_stamp_findings(ref('stg_layered__measurements'), 'layered', skip_foreign=true) }}
