{#- One row per line or file the loader quarantined, with the log family guessed from its name and location by
    discovery's rules (evalhouse/discover.py): a *.eval file is inspect; a JSONL log (or its logrotate name) takes
    the family of its nearest ancestor directory named logs_big, logs or logs_layered; a coder-eval document is
    known by its name; any other *.json is inspect. A file the loader registered has its family in raw.files too,
    which int_dq__raw_load_quarantine prefers (it knows `--family`). tests/loader/test_load_error_family.py holds
    this guess to discovery's, file for file. -#}
{%- set coder_eval_names = ['/run.json', '/task.json', '/task.execute.json', '/variant.json', '/experiment.json',
                            '/suite.json', 'judge-%.yaml', 'judge-%.yml', 'judge-%.json'] %}
with

source as (select * from {{ source('raw', 'load_errors') }}),

located as (
    select
        s.*,
        {{ matches_regex('s.source_file', "'\.jsonl([.-][0-9][0-9-]*)?(\.gz)?$'") }} as is_jsonl_name,
        -- the path up to the nearest ancestor directory named for a JSONL family ('' when none)
        {{ regex_first_match("'/' || s.source_file", "'^.*/(logs_big|logs_layered|logs)/'") }} as family_dir_path
    from source as s
)

select
    l.load_id,
    l.source_file,
    l.source_line,
    l.error,
    l.raw_text,
    case
        when l.source_file like '%.eval' then 'inspect'
        when l.is_jsonl_name and l.family_dir_path like '%/logs_big/' then 'big'
        when l.is_jsonl_name and l.family_dir_path like '%/logs_layered/' then 'layered'
        when l.is_jsonl_name and l.family_dir_path like '%/logs/' then 'matrix'
        {%- for name in coder_eval_names %}
            when ('/' || l.source_file) like '%{{ name }}' then 'coder_eval'
        {%- endfor %}
        when l.source_file like '%.json' then 'inspect'
        else 'unknown'
    end as source_family
from located as l
