"""gunicorn's settings for a real event: `make serve` and the systemd unit of docs/deploy.md.

From the environment: PORT (8000), MCR_BIND (127.0.0.1: behind nginx on the same machine)
and MCR_WORKERS (or WEB_CONCURRENCY; 4). An address beyond the machine itself (0.0.0.0, the
machine's address on the network) needs MCR_BIND_EXPOSED=1 as well: gunicorn's workers
answer one request at a time and read each request until it is whole, however slowly it
comes, so facing a network directly a handful of slow connections hold every worker and any
upload is read to its end. nginx in front reads requests whole first (docs/deploy.md); the
app servers of a big event, reached only by the nginx machine, set MCR_BIND_EXPOSED=1.
"""

import ipaddress
import os


def loopback(host: str) -> bool:
    """Whether ``host`` (an address as gunicorn binds it) is reachable from this machine
    only. A name other than localhost may resolve anywhere: not loopback."""
    host = host.strip().removeprefix("[").removesuffix("]")
    if host == "localhost" or host.startswith("unix:"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def exposed_allowed() -> bool:
    value = os.environ.get("MCR_BIND_EXPOSED", "0").strip()
    if value not in ("0", "1"):
        raise SystemExit(f"MCR_BIND_EXPOSED must be 1 or 0, not {value!r}.")
    return value == "1"


address = os.environ.get("MCR_BIND", "127.0.0.1")
if not loopback(address) and not exposed_allowed():
    raise SystemExit(
        f"MCR_BIND={address!r} would put gunicorn on the network with no proxy in front: a few "
        "slow connections would hold every worker, and any upload would be read to its end. "
        "Put nginx in front (docs/deploy.md, 'A closed network without a certificate', "
        "deploy/nginx-venue.conf) and leave MCR_BIND at 127.0.0.1; or, if only a proxy on "
        "another machine can reach this port, set MCR_BIND_EXPOSED=1."
    )
bind = f"{address}:{os.environ.get('PORT', '8000')}"
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
