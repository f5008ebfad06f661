{#- One row per line or file the loader quarantined, with the log family derived from its name and location the
    way discovery (evalhouse/discover.py) tells families apart. A file the loader registered has its family in
    raw.files too, which int_dq__raw_load_quarantine prefers (it knows `--family`). -#}
{%- set coder_eval_names = ['/run.json', '/task.json', '/task.execute.json', '/variant.json', '/experiment.json',
                            '/suite.json', 'judge-%.yaml', 'judge-%.yml', 'judge-%.json'] %}
with

source as (
    select * from {{ source('raw', 'load_errors') }}
)

select
    load_id,
    source_file,
    source_line,
    error,
    raw_text,
    case
        when source_file like '%.eval' then 'inspect'
        when ('/' || source_file) like '%/logs_big/%.jsonl%' then 'big'
        when ('/' || source_file) like '%/logs_layered/%.jsonl%' then 'layered'
        when ('/' || source_file) like '%/logs/%.jsonl%' then 'matrix'
        {%- for name in coder_eval_names %}
            when ('/' || source_file) like '%{{ name }}' then 'coder_eval'
        {%- endfor %}
        when source_file like '%.json' then 'inspect'
        else 'unknown'
    end as source_family
from source
