"""The event server: backups and restores, ``/healthz``, the error ids of the log, login
throttling, the release's digest, the demo and the rehearsal of an event."""
