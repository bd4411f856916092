import os

from django.core.wsgi import get_wsgi_application

from ledger.heap import settle_after_startup

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")

application = get_wsgi_application()
settle_after_startup()
