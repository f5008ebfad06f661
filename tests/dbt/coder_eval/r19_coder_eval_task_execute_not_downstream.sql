{#-
  R19: task.execute.json snapshots never enter an aggregate. Walks the dbt graph: no model may depend on
  stg_coder_eval__task_executes or on the raw ce_task_execute_docs source except that audit staging model itself.
  One row per offending model (the test fails when any exists).
-#}
{%- set offenders = [] -%}
{%- if execute -%}
    {%- for node in graph.nodes.values() -%}
        {%- if node.resource_type in ['model', 'snapshot', 'seed'] and node.name != 'stg_coder_eval__task_executes' -%}
            {%- for dep in node.depends_on.nodes -%}
                {%- if dep.endswith('.stg_coder_eval__task_executes') or dep.endswith('.coder_eval.ce_task_execute_docs') -%}
                    {%- do offenders.append(node.name ~ ' -> ' ~ dep) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
{%- endif %}
select offender
from (
    select cast(null as {{ dbt.type_string() }}) as offender
    {%- for o in offenders %}
    union all
    select '{{ o }}' as offender
    {%- endfor %}
) as offenders
where offender is not null
