{#-
  naive_stamp_detail(alias): the R12 finding text for a row of a staging model with stamp_raw, stamp and
  stamp_is_naive: what is wrong with the stamp (missing, does not parse, naive: no UTC offset, read as UTC).
  A column-level helper of the int_dq__<family>_r12_naive_stamps models; NULL when the stamp is fine.
-#}
{% macro naive_stamp_detail(alias) -%}
    case
        when {{ alias }}.stamp_raw is null then 'stamp is missing'
        when {{ alias }}.stamp is null then 'stamp ''' || {{ alias }}.stamp_raw || ''' does not parse as a timestamp'
        when {{ alias }}.stamp_is_naive then 'stamp ''' || {{ alias }}.stamp_raw || ''' has no UTC offset (read as UTC)'
    end
{%- endmacro %}
