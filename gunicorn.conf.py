"""gunicorn's settings for a real event: `make serve` and the systemd unit of docs/deploy.md.

From the environment: PORT (8000), MCR_BIND (127.0.0.1: behind a reverse proxy on the same
machine; 0.0.0.0 or the machine's address when the proxy is elsewhere) and MCR_WORKERS (or
WEB_CONCURRENCY; 4).
"""

import os

bind = f"{os.environ.get('MCR_BIND', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
# A save from a tablet takes a few milliseconds of one worker: four processes answer a few
# hundred tablets, and one of them stuck or restarting leaves three.
workers = int(os.environ.get("MCR_WORKERS") or os.environ.get("WEB_CONCURRENCY") or 4)
# The app is loaded (and warmed up: tournament/wsgi.py) once in the master, before the workers
# are forked: each worker answers its first request at once, also after a restart. Code
# changes need a restart of the service, not a HUP (which forks new workers from the code the
# master loaded).
preload_app = True
# A request still running after this long is stuck: its worker is killed and replaced.
timeout = 30
graceful_timeout = 20
# The access log to stdout and gunicorn's own to stderr: both end in the service's log.
accesslog = "-"
errorlog = "-"
