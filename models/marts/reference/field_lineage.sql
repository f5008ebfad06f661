select
    fl.mart_model,
    fl.mart_column,
    fl.depth,
    fl.upstream_model,
    fl.upstream_column,
    fl.raw_json_path,
    fl.lineage_end,
    fl.downstream_model,
    fl.downstream_column
from {{ ref('field_lineage_computed') }} as fl
