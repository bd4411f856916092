"""Admin sign-in limits on top of django-axes: per account, and per address.

axes counts failures per username and address (AXES_LOCKOUT_PARAMETERS), so one
password tried against many usernames from one address never reaches a limit.
Its lockout parameters share a single AXES_FAILURE_LIMIT; an address trying many
accounts (an office, a shared proxy) deserves more room than one account, so the
address is counted here against a limit of its own.
"""

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.utils import timezone


class AddressLimitedHandler(AxesDatabaseHandler):
    """axes' database handler, also locking an address out after ADDRESS_FAILURE_LIMIT.

    The address's failures are those axes recorded against every username within
    the cool-off; the lockout ends with the cool-off, as an account's does.
    """

    def is_locked(self, request, credentials=None):
        return super().is_locked(request, credentials) or self.address_is_locked(request)

    def user_login_failed(self, sender, credentials, request=None, **kwargs):
        # The failure that reaches the address's limit is answered with the lockout
        # page, as the one that reaches an account's is.
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is not None and not request.axes_locked_out and self.address_is_locked(request):
            request.axes_locked_out = True
            request.axes_credentials = credentials

    @staticmethod
    def address_is_locked(request):
        since = timezone.now() - settings.AXES_COOLOFF_TIME
        failures = AccessAttempt.objects.filter(
            ip_address=request.axes_ip_address, attempt_time__gte=since
        ).aggregate(total=Sum("failures_since_start"))["total"]
        return (failures or 0) >= settings.ADDRESS_FAILURE_LIMIT
