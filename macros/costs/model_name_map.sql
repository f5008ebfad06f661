{#-
  model_name_map(names_relation, column, aliases): a subquery with one row per distinct raw model id found in
  `column` of `names_relation` (a CTE or relation name): (model_raw, model), where `model` is the id the
  rate card uses. Driven entirely by `aliases`, the model_aliases seed (the caller passes ref('model_aliases'), so the
  edge is in the model file): `prefix` rows are stripped from the front of
  the lower-cased, trimmed id, repeatedly, until none matches (openrouter/, bedrock/, eu./us./global./
  apac., anthropic., vendor segments); then an `exact` row maps the stripped id to its card id (dated
  Claude ids, Bedrock -v1:0 suffixes, dotted spellings). Ids no rule touches are kept lower-cased.
-#}
{% macro model_name_map(names_relation, column, aliases) -%}
(
    with recursive names as (
        select distinct nr.{{ column }} as model_raw
        from {{ names_relation }} as nr
        where nr.{{ column }} is not null
    ),

    prefixes as (
        select a.pattern
        from {{ aliases }} as a
        where a.rule_kind = 'prefix'
    ),

    exacts as (
        select
            a.pattern,
            a.canonical_model
        from {{ aliases }} as a
        where a.rule_kind = 'exact'
    ),

    stripped (model_raw, name, depth) as (
        select
            n.model_raw,
            lower(trim(n.model_raw)),
            0
        from names as n
        union all
        select
            s.model_raw,
            substr(s.name, length(p.pattern) + 1),
            s.depth + 1
        from stripped as s
        inner join prefixes as p
            on left(s.name, length(p.pattern)) = p.pattern and length(s.name) > length(p.pattern)
        where s.depth < 10
    ),

    deepest as (
        select
            s.model_raw,
            s.name,
            row_number() over (partition by s.model_raw order by s.depth desc, s.name) as rn
        from stripped as s
    )

    select
        d.model_raw,
        coalesce(e.canonical_model, d.name) as model
    from deepest as d
    left join exacts as e
        on d.name = e.pattern
    where d.rn = 1
)
{%- endmacro %}
