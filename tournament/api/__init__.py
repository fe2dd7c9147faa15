"""The open results API: read-only JSON under ``/api/v1/``, described by the OpenAPI document
the code generates (``/api/v1/openapi.json``)."""
