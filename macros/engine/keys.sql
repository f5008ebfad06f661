{#-
  line_key(file_expr, line_expr): the stable key of one source line (run_key, turn_key,
  measurement_key): md5 of '<source_file>:<source_line>'.
-#}
{% macro line_key(file_expr, line_expr) -%}
    {{ return(adapter.dispatch('line_key', 'evalhouse')(file_expr, line_expr)) }}
{%- endmacro %}

{% macro default__line_key(file_expr, line_expr) -%}
    md5({{ file_expr }} || ':' || cast({{ line_expr }} as {{ dbt.type_string() }}))
{%- endmacro %}

{#-
  Engine type names the models cast to where the engines spell them differently: text (DuckDB
  varchar, Spark string) is dbt's type_string(); an instant in UTC is type_timestamptz() (DuckDB
  timestamptz; Spark's timestamp is already an instant, shown in the session time zone, UTC here).
-#}
{% macro type_timestamptz() -%}
    {{ return(adapter.dispatch('type_timestamptz', 'evalhouse')()) }}
{%- endmacro %}
{% macro default__type_timestamptz() -%}timestamptz{%- endmacro %}
{% macro spark__type_timestamptz() -%}timestamp{%- endmacro %}

{#- Whether `expr` contains a match of the regular expression `pattern` (a SQL string literal). -#}
{% macro matches_regex(expr, pattern) -%}
    {{ return(adapter.dispatch('matches_regex', 'evalhouse')(expr, pattern)) }}
{%- endmacro %}
{% macro default__matches_regex(expr, pattern) -%}regexp_matches({{ expr }}, {{ pattern }}){%- endmacro %}
{#- Spark reads a backslash in a string literal as an escape: the pattern's backslashes are doubled. -#}
{% macro spark__matches_regex(expr, pattern) -%}regexp_like({{ expr }}, {{ pattern | replace('\\', '\\\\') }}){%- endmacro %}

{#- The first match of the regular expression `pattern` (a SQL string literal) in `expr`, '' when none. -#}
{% macro regex_first_match(expr, pattern) -%}
    {{ return(adapter.dispatch('regex_first_match', 'evalhouse')(expr, pattern)) }}
{%- endmacro %}
{% macro default__regex_first_match(expr, pattern) -%}regexp_extract({{ expr }}, {{ pattern }}){%- endmacro %}
{% macro spark__regex_first_match(expr, pattern) -%}
    regexp_extract({{ expr }}, {{ pattern | replace('\\', '\\\\') }}, 0)
{%- endmacro %}

{#-
  Text cast to a type named as DuckDB names it (integer, bigint, double, boolean, ...), NULL when it does not
  cast, as DuckDB's try_cast reads it, on every engine. Spark's own try_cast differs for integers (DuckDB reads
  '2.0', '2.5' and '1e3' as 2, 3 and 1000, rounding half away from zero; Spark's try_cast gives NULL) and for
  booleans (DuckDB reads true, t, yes, y, 1 and false, f, no, n, 0 in any case, nothing trimmed; Spark's cast
  also trims, so a log's " true" would be a boolean on one engine and invalid on the other). What stays
  different: DuckDB also reads '1_000' and '0x10' as integers.
-#}
{% macro try_cast_text(expr, type) -%}
    {{ return(adapter.dispatch('try_cast_text', 'evalhouse')(expr, type)) }}
{%- endmacro %}
{% macro default__try_cast_text(expr, type) -%}try_cast({{ expr }} as {{ type }}){%- endmacro %}
{% macro spark__try_cast_text(expr, type) -%}
    {%- set t = type | lower -%}
    {%- if t in ('tinyint', 'smallint', 'integer', 'int', 'bigint') -%}
        coalesce(try_cast({{ expr }} as {{ t }}), try_cast(round(try_cast({{ expr }} as decimal(38, 9))) as {{ t }}))
    {%- elif t == 'boolean' -%}
        case when lower({{ expr }}) in ('true', 't', 'yes', 'y', '1') then true
            when lower({{ expr }}) in ('false', 'f', 'no', 'n', '0') then false end
    {%- else -%}
        try_cast({{ expr }} as {{ engine_type(type) }})
    {%- endif -%}
{%- endmacro %}

{#- A double rounded to an integer type as DuckDB's cast rounds it: to the nearest, ties to even. -#}
{% macro double_to_integer(expr, type) -%}
    {{ return(adapter.dispatch('double_to_integer', 'evalhouse')(expr, type)) }}
{%- endmacro %}
{% macro default__double_to_integer(expr, type) -%}try_cast({{ expr }} as {{ type }}){%- endmacro %}
{% macro spark__double_to_integer(expr, type) -%}try_cast(bround({{ expr }}) as {{ type }}){%- endmacro %}

{#- The engine's spelling of a DuckDB type name (field lists name DuckDB types: varchar, timestamptz, ...). -#}
{% macro engine_type(name) -%}
    {{ return(adapter.dispatch('engine_type', 'evalhouse')(name)) }}
{%- endmacro %}
{% macro default__engine_type(name) -%}{{ name }}{%- endmacro %}
{% macro spark__engine_type(name) -%}
    {{- {'varchar': 'string', 'text': 'string', 'json': 'string', 'time': 'string', 'timestamptz': 'timestamp',
         'timestamp with time zone': 'timestamp', 'hugeint': 'bigint',
         'ubigint': 'decimal(20,0)'}.get(name | lower, name) -}}
{%- endmacro %}

{#- Every column of `alias` but `columns` (a list of names), in a SELECT list. -#}
{% macro star_except(alias, columns) -%}
    {{ return(adapter.dispatch('star_except', 'evalhouse')(alias, columns)) }}
{%- endmacro %}
{% macro default__star_except(alias, columns) -%}{{ alias }}.* exclude ({{ columns | join(', ') }}){%- endmacro %}
{% macro spark__star_except(alias, columns) -%}{{ alias }}.* except ({{ columns | join(', ') }}){%- endmacro %}

{#-
  A number as text, as DuckDB writes a double: the shortest digits that read back, plain from 1e-4 up to
  1e16 ('0.00091357', '10000000.0'), else with an exponent ('1e-05', '1.5e+16'); integers as themselves.
  Spark writes doubles as Java does ('9.1357E-4'), so its version rewrites Java's text into DuckDB's.
-#}
{% macro number_text(expr, digits=none) -%}
    {{ return(adapter.dispatch('number_text', 'evalhouse')(expr, digits)) }}
{%- endmacro %}
{#- `digits`: rounded to that many decimals first. At an exact tie of the printed digits the engines may round
    differently (DuckDB rounds the double's exact value, Spark its shortest decimal text): docs/spark.md. -#}
{% macro default__number_text(expr, digits=none) -%}
    {%- if digits is not none -%}
    cast(round({{ expr }}, {{ digits }}) as {{ dbt.type_string() }})
    {%- else -%}
    cast({{ expr }} as {{ dbt.type_string() }})
    {%- endif -%}
{%- endmacro %}
{% macro spark__number_text(expr, digits=none) -%}
    {%- if digits is not none -%}
        {%- set expr = 'round(' ~ expr ~ ', ' ~ digits ~ ')' -%}
    {%- endif -%}
    {%- set t = 'cast(abs(' ~ expr ~ ') as string)' -%}
    {%- set ex = "cast(substring_index(" ~ t ~ ", 'E', -1) as int)" -%}
    {%- set mant = "substring_index(" ~ t ~ ", 'E', 1)" -%}
    {%- set digits = "regexp_replace(replace(" ~ mant ~ ", '.', ''), '0+$', '')" -%}
    (case
        when ({{ expr }}) is null then null
        when isnan({{ expr }}) then 'nan'
        when ({{ expr }}) = double('inf') then 'inf'
        when ({{ expr }}) = double('-inf') then '-inf'
        else concat(case when ({{ expr }}) < 0 then '-' else '' end, case
            when instr({{ t }}, 'E') = 0 then {{ t }}
            when {{ ex }} between -4 and -1
                then concat('0.', repeat('0', -{{ ex }} - 1), {{ digits }})
            when {{ ex }} between 0 and 15 and length({{ digits }}) <= {{ ex }} + 1
                then concat(rpad({{ digits }}, {{ ex }} + 1, '0'), '.0')
            when {{ ex }} between 0 and 15
                then concat(substr({{ digits }}, 1, {{ ex }} + 1), '.', substr({{ digits }}, {{ ex }} + 2))
            else concat(
                regexp_replace({{ mant }}, '\\.0$', ''), 'e', case when {{ ex }} < 0 then '-' else '+' end,
                lpad(cast(abs({{ ex }}) as string), 2, '0')
            )
        end)
    end)
{%- endmacro %}

{#- An instant as text, as DuckDB writes a timestamptz in UTC: '2026-08-19 20:43:00+00' (fractions trimmed). -#}
{% macro instant_text(expr) -%}
    {{ return(adapter.dispatch('instant_text', 'evalhouse')(expr)) }}
{%- endmacro %}
{% macro default__instant_text(expr) -%}cast({{ expr }} as {{ dbt.type_string() }}){%- endmacro %}
{% macro spark__instant_text(expr) -%}concat(cast({{ expr }} as string), '+00'){%- endmacro %}
