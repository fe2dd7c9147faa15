"""The event server: backups and restores, ``/healthz``, the error ids of the log, login
throttling, the bounds of an uploaded workbook, the demo and the rehearsal of an event."""
