{#-
  AGGREGATE column block over rows that are ONE PER GROUP: the unweighted mean of the group means (inspect_ai's
  grouped(metric, key, all="groups")) and what its interval needs. The groups are fixed strata, each weighted 1/G
  (G: the groups whose mean is not NULL; a group with no mean is not a group of it):
    <prefix>_mean     = sum(mean_g) / G
    <prefix>_se       = sqrt(sum(SE_g^2)) / G; NULL when a group's SE is NULL (a group of one cluster says nothing
                        about its spread); an SE_g below 1e-12 counts 0 (clusters that agree, as in effective_n)
    <prefix>_df       = floor(Welch-Satterthwaite (sum SE_g^2)^2 / sum(SE_g^4 / (C_g - 1)) + 1e-9), at least 1
                        (the group that dominates the variance sets it); min(C_g) - 1 when every SE_g is 0
    <prefix>_n_obs    = G^2 / sum(1 / n_g): the observations an equal-weight mean of binomial groups carries (the
                        design-effect n of the rate interval is at most this)
    <prefix>_is_binary: every group's observations are 0 or 1
  The interval is then mean_interval_columns(<prefix>_mean, <prefix>_se, ..., <prefix>_df + 1, <prefix>_n_obs,
  binary=<prefix>_is_binary): Wilson at the design-effect n with t(df) for pass/fail groups, the angular t(df)
  interval otherwise (docs/statistics.md, "The mean of groups"; scripts/stats_oracle.py::mean_of_groups).
-#}
{% macro mean_of_groups_columns(mean, se, n_clusters, n_obs, binary, prefix) -%}
    {%- set var = '(case when (' ~ mean ~ ') is not null and (' ~ se ~ ') > 1e-12 then cast((' ~ se ~ ') as double) * ('
                  ~ se ~ ') when (' ~ mean ~ ') is not null and (' ~ se ~ ') is not null then cast(0 as double) end)' -%}
    {%- set clusters = '(case when (' ~ mean ~ ') is not null then (' ~ n_clusters ~ ') end)' -%}
    avg({{ mean }}) as {{ prefix }}_mean,
    case
        when count({{ mean }}) > 0 and count({{ var }}) = count({{ mean }}) then sqrt(sum({{ var }})) / count({{ mean }})
    end as {{ prefix }}_se,
    case
        when count({{ mean }}) = 0 or count({{ var }}) < count({{ mean }}) then null
        when sum({{ var }}) > 0
            then greatest(1, floor(power(sum({{ var }}), 2) / sum({{ var }} * {{ var }} / ({{ clusters }} - 1)) + 1e-9))
        else min({{ clusters }}) - 1
    end as {{ prefix }}_df,
    cast(count({{ mean }}) as double) * count({{ mean }})
    / sum(case when ({{ mean }}) is not null then cast(1 as double) / ({{ n_obs }}) end) as {{ prefix }}_n_obs,
    min(case when ({{ mean }}) is not null then case when ({{ binary }}) then 1 else 0 end end) = 1 as {{ prefix }}_is_binary
{%- endmacro %}
