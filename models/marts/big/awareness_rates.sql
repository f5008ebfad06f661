{#-
  Awareness runs alone (answer-text F1 against a truth set, threshold 0.7), one row per
  (kind, model, with_brain, with_plan): never pooled with fix / refactor (R03). Same columns as
  big_rates; regress is not measured for awareness (regress columns are NULL / 0).
-#}
{{ big_stratified_rates(['awareness']) }}
