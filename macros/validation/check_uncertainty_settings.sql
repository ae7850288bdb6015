{#-
    What the rules of setting_rules (check_setting_rules) cannot say alone, checked by
    check_settings (on-run-start) after them: the outside band lies below the secure one.
-#}
{% macro check_uncertainty_settings() -%}
    {%- set settings = rank_uncertainty_settings() -%}
    {%- if settings.outside >= settings.secure -%}
        {{ exceptions.raise_compiler_error('invalid rank-uncertainty settings: rank_band_outside = '
            ~ settings.outside ~ ' must be below rank_band_secure = ' ~ settings.secure) }}
    {%- endif -%}
{%- endmacro %}
