from django.shortcuts import render

from claims.public_record import episodes_with_counts, totals
from episodes.models import Episode

RECENT_EPISODES = 6


def home(request):
    return render(
        request,
        "home.html",
        {
            "recent_episodes": episodes_with_counts(
                Episode.objects.published().newest_first()[:RECENT_EPISODES]
            ),
            **totals(),
        },
    )
