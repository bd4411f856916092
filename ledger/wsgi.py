import os

from django.core.wsgi import get_wsgi_application

from ledger.heap import settle_after_startup
from ledger.warm import compile_templates

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")

application = get_wsgi_application()
compile_templates()
settle_after_startup()
