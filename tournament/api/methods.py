"""HEAD and OPTIONS on every address of the results API, and each address with a final slash.

django-ninja routes each method to the operation registered for it and answers 405 to any
other, HEAD included: the uptime monitors that poll with HEAD were refused. Registering each
operation for HEAD as well (``api_operation(["GET", "HEAD"], ...)``) would add a HEAD
operation to every path of the OpenAPI document and still send the GET's body. Instead each
address's view is wrapped: HEAD is answered as the GET (its status, headers and ETag, 304 for
a matching ``If-None-Match``, counted in the caller's rate) without the body, and OPTIONS
lists the methods. The API only reads: every address takes GET and nothing else, which its
test checks against the OpenAPI document.

The API's addresses have no final slash (``/api/v1/tournaments``), every page of the site
has one (``/t/spring-open/standings/``): a reader who wrote one as the other would get a
404. Each address answers in both forms, the same view behind both, rather than
redirecting one to the other: a client that does not follow redirects (curl without
``-L``) gets the answer, and no request is counted twice against the rate. The OpenAPI
document, generated from the operations and not from these patterns, names each endpoint
once, without the slash.
"""

from functools import wraps

from django.http import HttpResponse, HttpResponseNotAllowed
from django.urls import path

METHODS = ("GET", "HEAD", "OPTIONS")


def read_only(view):
    """``view`` (one address's, answering GET) answering HEAD and OPTIONS too, and 405 with
    the methods it takes to anything else."""

    @wraps(view)
    def answered(request, *args, **kwargs):
        if request.method == "OPTIONS":
            response = HttpResponse(status=200)
            response["Allow"] = ", ".join(METHODS)
            return response
        if request.method not in METHODS:
            return HttpResponseNotAllowed(METHODS, content=b"Method not allowed")
        if request.method == "GET":
            return view(request, *args, **kwargs)
        # Everything the GET's answer depends on (the ETag, the throttle, the pages) reads
        # the request as it is: only the method differs.
        request.method = "GET"
        try:
            response = view(request, *args, **kwargs)
        finally:
            request.method = "HEAD"
        if not response.streaming:
            # The length of what a GET would send, as HEAD tells it (RFC 9110, 9.3.2).
            length = len(response.content)
            response.content = b""
            response["Content-Length"] = str(length)
        return response

    return answered


def read_only_urls(urls):
    """``NinjaAPI.urls`` (patterns, app name, namespace), every address but the API's root
    (which only names the prefix, and answers 404) taking HEAD and OPTIONS."""
    patterns, app_name, namespace = urls
    for pattern in patterns:
        if pattern.name != "api-root":
            pattern.callback = read_only(pattern.callback)
    return patterns, app_name, namespace


def with_final_slash(urls):
    """``NinjaAPI.urls`` with each address's twin ending in a slash (``tournaments/`` beside
    ``tournaments``), the same view and arguments; not the API's root, nor the OpenAPI
    document, a file's name (``openapi.json``)."""
    patterns, app_name, namespace = urls
    twins = [
        # Unnamed: reversing a name gives the address the document names.
        path(f"{pattern.pattern}/", pattern.callback, pattern.default_args)
        for pattern in patterns
        if pattern.name not in ("api-root", "openapi-json")
    ]
    return [*patterns, *twins], app_name, namespace
