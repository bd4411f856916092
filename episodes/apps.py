from django.apps import AppConfig


class EpisodesConfig(AppConfig):
    name = "episodes"
    verbose_name = "Podcasts, episodes and speakers"
