from django import template

register = template.Library()


@register.filter
def named_how(namings) -> str:
    """“Recommended by 3 people · mentioned by 1”: each role with its distinct people.

    A role only unresolved voices gave reads “criticised by an unresolved voice”:
    such voices are never counted as people.
    """
    parts = []
    for naming in namings:
        count = naming.people_count
        if count and not parts:
            who = f"{count} {'person' if count == 1 else 'people'}"
        elif count:
            who = str(count)
        else:
            who = "an unresolved voice"
        if count and naming.by_unresolved_voice:
            who += " and an unresolved voice"
        parts.append(f"{naming.past} by {who}")
    text = " · ".join(parts)
    return text[:1].upper() + text[1:]
