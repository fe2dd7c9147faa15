"""Each request starts on the site's clock: a tournament's page puts its own time zone on
(``views.common.in_event_time``), and the worker's next request must not inherit it."""

from django.utils import timezone


class EventTimeMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
