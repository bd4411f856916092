from django import template

from claims import page_meta
from claims.structured_data import json_ld_script

register = template.Library()


@register.simple_tag(takes_context=True)
def page_meta_for(context):
    """`{% page_meta_for as meta %}`: the page's PageMeta (claims/page_meta.py)."""
    return page_meta.describe(context)


register.filter("json_ld", json_ld_script)
