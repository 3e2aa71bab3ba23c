"""Where a batch's runs are played: any :class:`concurrent.futures.Executor`.

* ``local`` (the default): a pool of worker processes on this machine, nothing to start.
  Workers come from a fork server that has imported the engine once (quick to start, and
  safe beside the threads of the progress bar), and ignore Ctrl-C: the batch itself
  stops them and says what it kept.
* ``dask``: a Dask distributed cluster, ``--address tcp://HOST:PORT`` of its scheduler
  (the optional extra ``undercroft[cluster]``). ``Client.get_executor()`` is a standard
  executor; the workers need the same undercroft installed. Only the address changes
  between a laptop and a cluster; the game code does not know which it runs on.

Results do not depend on the backend: every run's seed comes from the batch seed and its
index, and rows are written in run order.
"""

from __future__ import annotations

import multiprocessing
import re
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import Executor, InvalidStateError, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

BACKENDS = ("local", "dask")
CONNECT_SECONDS = 5.0
"""How long to wait for a Dask scheduler to answer."""


class BackendError(ValueError):
    """A backend that cannot be used (no Dask installed, no scheduler at the address)."""


@dataclass(frozen=True)
class Backend:
    """An executor and how many runs it plays at once."""

    executor: Executor
    slots: int
    name: str


_excepthook = threading.excepthook

MANAGER_JOIN_SECONDS = 10.0
"""How long a stopped pool's manager thread is waited for (it ends once its workers are
ended, well within this)."""


def _quiet_broken_pool(args: threading.ExceptHookArgs) -> None:
    """Python 3.11's pool manager thread may raise ``InvalidStateError`` when the workers
    of a stopped pool are ended while some of its futures were cancelled: a race of no
    consequence, not to be shown as a traceback to someone who pressed Ctrl-C."""
    if not isinstance(args.exc_value, InvalidStateError):
        _excepthook(args)


def _ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def local(workers: int) -> Iterator[Backend]:
    """A process pool of ``workers`` processes."""
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(["undercroft.analysis.worker"])
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_ctrl_c)
    try:
        yield Backend(pool, workers, f"local processes ({workers})")
    except BaseException:
        # Stopped (Ctrl-C, a failure): the chunks still running are of no use, and waiting
        # for them could take minutes, so the workers are ended at once.
        workers_now = list(getattr(pool, "_processes", {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
        threading.excepthook = _quiet_broken_pool
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers_now:
            process.terminate()
        # The pool's manager thread closes its wake-up pipe as it ends; Python 3.11's exit
        # hook writes to that pipe unless closed, and the two raced ("Bad file
        # descriptor" traceback after a batch stopped by a full disk). With the workers
        # ended the thread ends at once: wait for it, so the pipe is closed before exit.
        if manager is not None:
            manager.join(timeout=MANAGER_JOIN_SECONDS)
        raise
    else:
        pool.shutdown(wait=True)


ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9a-fA-F:.]+\]|[\w.-]+):\d{1,5}")
"""A Dask scheduler's address: an optional protocol, a host (a name, an IPv4 address or
an IPv6 one in brackets) and a port."""


def check_address(address: str) -> None:
    """:class:`BackendError` unless ``address`` reads as a scheduler's. Checked before any
    client is made: Dask's own parse fails half-way into making one, whose clean-up then
    waits 10 s and prints a traceback on the way out."""
    if not ADDRESS.fullmatch(address):
        raise BackendError(
            f"--address {address}: not a scheduler address; write tcp://HOST:PORT (or "
            "HOST:PORT), as `dask scheduler` prints it"
        )


@contextmanager
def dask(address: str) -> Iterator[Backend]:
    """The Dask cluster whose scheduler listens at ``address``."""
    timeout = CONNECT_SECONDS
    check_address(address)
    try:
        from distributed import Client as DaskClient  # optional extra: undercroft[cluster]
    except ImportError:
        raise BackendError(
            "--backend dask needs Dask distributed: pip install 'undercroft[cluster]'"
        ) from None
    try:
        connect: Any = DaskClient  # distributed has no type hints
        client: Any = connect(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise BackendError(
            f"--address {address}: no Dask scheduler answered ({exc}); start one with "
            "`dask scheduler` and workers with `dask worker ADDRESS`"
        ) from None
    try:
        threads = sum(client.nthreads().values())
        if threads == 0:
            raise BackendError(f"--address {address}: the Dask scheduler has no workers")
        yield Backend(client.get_executor(), threads, f"Dask at {address} ({threads} threads)")
    finally:
        client.close()
