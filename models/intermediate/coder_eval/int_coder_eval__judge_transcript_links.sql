{#-
  Judge criterion results linked to their spilled transcript file (judge-<i>.yaml / post-failure-judge-<i>.yaml)
  through transcript_path: same replicate directory, same phase and list index, file name = transcript_path.
  One row per judge result that names a transcript_path; transcript columns are NULL when the file is missing.
-#}
with results as (
    select * from {{ ref('stg_coder_eval__criterion_results') }}
    where transcript_path is not null
),

transcripts as (select * from {{ ref('stg_coder_eval__judge_transcripts') }})

select
    r.run_dir,
    r.run_id,
    r.variant_id,
    r.task_id,
    r.replicate_index,
    r.result_phase,
    r.criterion_index,
    r.criterion_type,
    r.transcript_path,
    t.source_file as transcript_source_file,
    t.source_file is not null as has_transcript,
    t.duration_seconds as transcript_duration_seconds,
    t.truncated as transcript_truncated,
    t.n_tool_calls as transcript_n_tool_calls,
    t.judge_uncached_input_tokens as transcript_uncached_input_tokens,
    t.judge_output_tokens as transcript_output_tokens,
    t.judge_cost_usd as transcript_cost_usd,
    t.raw_verdict,
    r.source_file,
    r.load_id,
    r.document_sha256
from results as r
left join transcripts as t
    on
        {{ coder_eval_same_replicate('r', 't') }}
        and r.result_phase = t.result_phase
        and r.criterion_index = t.criterion_index
        and r.transcript_path = t.transcript_file_name
