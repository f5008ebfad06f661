{#-
  R08 (what the logs claim): one row per matrix turn whose check_kind maps to no evidence class through the
  check_kind_classes seed. The turn is left out of every pass rate (a rate never pools or guesses an evidence
  class) and the build goes on; the finding names the file, line and spelling, and what to do.
-#}
select
    {{ dq_finding('R08', 'matrix', 't') }},
    case
        when t.check_kind is null
            then 'check_kind is missing: the turn is left out of every pass rate'
        else 'check_kind ''' || t.check_kind || ''' maps to no evidence class: the turn is left out of every pass '
            || 'rate; add the spelling to seeds/check_kind_classes.csv with its evidence class (executed, compiled '
            || 'or syntax_only) and build again'
    end as detail
from {{ ref('int_matrix__turns') }} as t
where t.evidence_class is null
