-- R08: every matrix turn's check_kind maps to an evidence class through the check_kind_classes seed.
-- A NULL or unmapped check_kind is a mapping gap evalhouse must fix (add the spelling to the seed).
select
    t.source_file,
    t.source_line,
    t.check_kind
from {{ ref('fct_matrix_turns') }} as t
where t.evidence_class is null
