{#-
  Fix and refactor runs only, one row per (kind, model, with_brain, with_plan): change_mean and
  regress_mean (never a pass rate, never combined: R01, R02) with cluster-robust intervals by
  scenario, the assertion count, done-but-broke count and stamp range. Body: macros/big/.
-#}
{{ big_stratified_rates(['fix', 'refactor']) }}
