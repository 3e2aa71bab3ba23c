"""Files the user names: what may be read, what may be written, and how.

* An input is read only if it is a regular file (a symbolic link to one is fine): a
  folder, a named pipe or a device is refused, so nothing blocks forever on a FIFO.
* An output is written only where nothing stands or a regular file stands, never over a
  symbolic link, a folder, a named pipe or a device; and never over a file the same
  command reads, nor one path for two outputs.
* Writing goes to a new temporary file beside the target, renamed over it when complete,
  so a reader never sees half a file; the target is checked again just before the rename.
  A folder of results is made the same way (:func:`atomic_folder`): it grows as a hidden
  sibling and is renamed into place when complete, or removed if anything fails.
* A write that fails is described by :func:`write_failure`: a full disk says "no space
  left on the disk" in so many words.

Commands call :func:`check_outputs` before they start work, so a long run is never
wasted on an output that cannot be written. Every refusal is a :class:`PathError`
naming the option, the path and the reason.
"""

from __future__ import annotations

import errno
import itertools
import os
import shutil
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from platformdirs import user_data_dir

_NUMBERS = itertools.count()


class PathError(ValueError):
    """A path the user named that cannot be used; names the option, the path and why."""

    def __init__(self, option: str, path: Path | str, reason: str) -> None:
        self.option = option
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{option} {path}: {reason}" if option else f"{path}: {reason}")


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_input(path: Path, option: str = "") -> None:
    """``path`` exists and is a regular file (or a link to one) that can be read."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise PathError(option, path, "no such file") from None
    except OSError as exc:
        raise PathError(option, path, f"cannot be read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise PathError(option, path, "is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise PathError(
            option, path, f"is {_kind(mode)}, not a regular file; undercroft reads only files"
        )
    if not os.access(path, os.R_OK):
        raise PathError(option, path, "cannot be read (permission denied)")


def _check_target(path: Path, option: str, partial: bool = False) -> None:
    """What stands at ``path`` (or at its partial file) may be replaced: nothing, or a
    writable regular file. The refusal names ``path``, the path the user gave."""
    where = partial_path(path) if partial else path
    try:
        mode = os.lstat(where).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise PathError(option, path, f"cannot be written: {exc.strerror or exc}") from None
    name = f"its partial file {where.name} " if partial else ""
    if stat.S_ISLNK(mode):
        raise PathError(
            option, path, f"{name}is a symbolic link; undercroft never replaces a link "
            "(name the file it points to, or another path)",
        )  # fmt: skip
    if not stat.S_ISREG(mode):
        raise PathError(
            option, path, f"{name}is {_kind(mode)}; undercroft writes only regular files "
            "and never replaces anything else: name a file",
        )  # fmt: skip
    if not os.access(where, os.W_OK):
        raise PathError(option, path, f"{name}is read-only; undercroft will not replace it")


def _check_folder(path: Path, option: str) -> None:
    """The folder that will hold ``path`` exists and can be written."""
    folder = path.parent
    probe = folder
    while True:
        try:
            mode = os.stat(probe).st_mode
            break
        except (FileNotFoundError, NotADirectoryError):
            if probe == probe.parent:
                raise PathError(option, path, f"the folder {folder} does not exist") from None
            probe = probe.parent
        except OSError as exc:
            raise PathError(option, path, f"cannot be written: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(mode):
        raise PathError(option, path, f"{probe} is a file, not a folder")
    if probe != folder:
        raise PathError(option, path, f"the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PathError(option, path, f"the folder {folder} cannot be written")


def data_folder() -> Path:
    """Where undercroft keeps the user's data (campaigns, the results catalogue, batch
    results): ``$UNDERCROFT_DATA`` if set, else the platform's user data folder."""
    env = os.environ.get("UNDERCROFT_DATA")
    if env:
        return Path(env)
    return Path(user_data_dir("undercroft"))


def make_folder(path: Path, what: str) -> Path:
    """``path`` as a folder, made (with its parents) if missing; :class:`PathError` when it
    cannot be (a file stands there or on the way: ``XDG_DATA_HOME`` naming a file, say)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PathError(
            "", path, f"cannot make {what} there: {exc.strerror or exc} (the data folder is "
            "$UNDERCROFT_DATA, else the platform's user data folder, under $XDG_DATA_HOME "
            "on Linux)",
        ) from None  # fmt: skip
    return path


def partial_path(path: Path) -> Path:
    """Where a streamed file grows until it is complete: ``PATH.partial``."""
    return path.with_name(path.name + ".partial")


def check_output(path: Path, option: str = "", *, streamed: bool = False) -> None:
    """``path`` can be written: its folder exists, and what stands there may be replaced.

    ``streamed``: the file grows at ``PATH.partial`` first, which must be free too.
    """
    _check_folder(path, option)
    _check_target(path, option)
    if streamed:
        _check_target(path, option, partial=True)


def same_file(a: Path, b: Path) -> bool:
    """``a`` and ``b`` name one file (through links, ``..`` or a hard link)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


Named = Iterable[tuple[str, Path | None]]
"""``(option, path)`` pairs; a ``None`` path is an option not given."""


def check_outputs(outputs: Named, inputs: Named = (), *, streamed: Iterable[str] = ()) -> None:
    """Every output can be written, no two outputs are one file, and no output is one of
    the ``inputs`` the command uses (a save given to ``--resume``, a database, ...)."""
    grows = set(streamed)
    written = [(option, path) for option, path in outputs if path is not None]
    read = [(option, path) for option, path in inputs if path is not None]
    for i, (option, path) in enumerate(written):
        check_output(path, option, streamed=option in grows)
        for other, other_path in written[:i]:
            if same_file(path, other_path):
                raise PathError(
                    option, path, f"is also the file of {other}: one file cannot hold both; "
                    "name two different files",
                )  # fmt: skip
        for source, source_path in read:
            if same_file(path, source_path):
                raise PathError(
                    option, path, f"is the file given to {source}, which this command reads; "
                    "writing it would destroy it: name another file",
                )  # fmt: skip


def write_failure(exc: OSError) -> str:
    """Why a write failed, in words: a full disk (ENOSPC) or a used-up quota says so."""
    if exc.errno == errno.ENOSPC:
        return "no space left on the disk (ENOSPC)"
    if exc.errno == errno.EDQUOT:
        return "no space left: the disk quota is used up (EDQUOT)"
    return f"cannot write: {exc.strerror or exc}"


def _create_beside(path: Path, suffix: str) -> tuple[IO[str], Path]:
    """A new, empty text file in ``path``'s folder (never an existing one)."""
    while True:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{next(_NUMBERS)}{suffix}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        return os.fdopen(fd, "w", encoding="utf-8", newline="\n"), tmp


def _finish(handle: IO[str], tmp: Path, path: Path) -> None:
    handle.flush()
    os.fsync(handle.fileno())
    handle.close()
    _check_target(path, "")
    os.replace(tmp, path)


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a new file beside it and a rename.

    Raises :class:`PathError` when ``path`` is not a regular file or a free path.
    """
    _check_target(path, "")
    handle, tmp = _create_beside(path, ".tmp")
    try:
        handle.write(text)
        _finish(handle, tmp, path)
    finally:
        handle.close()
        if tmp.exists():
            tmp.unlink()


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A new, empty file beside ``path`` for a writer that wants a path (a Parquet or CSV
    writer); when the block ends it becomes ``path`` by a rename, and if the block fails
    (a full disk, an interrupt) it is removed and ``path`` is left as it was."""
    _check_target(path, "")
    handle, tmp = _create_beside(path, ".tmp")
    handle.close()
    try:
        yield tmp
        with open(tmp, "rb+") as written:
            os.fsync(written.fileno())
        _check_target(path, "")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _check_folder_target(path: Path) -> None:
    """Nothing stands at ``path``, or an empty folder (which a rename may replace)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode) and not any(path.iterdir()):
        return
    what = "a folder that is not empty" if stat.S_ISDIR(mode) else _kind(mode)
    raise PathError("", path, f"is {what} now; undercroft never writes over it")


@contextmanager
def atomic_folder(path: Path) -> Iterator[Path]:
    """A new, empty folder beside ``path`` to fill; when the block ends it becomes ``path``
    by a rename (``path`` must be free or an empty folder), and if the block fails (a full
    disk, an interrupt, a refusal) it is removed with everything in it and ``path`` is left
    as it was. A reader never sees half a folder of results under its real name."""
    _check_folder_target(path)
    while True:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{next(_NUMBERS)}.tmp")
        try:
            tmp.mkdir()
        except FileExistsError:
            continue
        break
    try:
        yield tmp
        _check_folder_target(path)
        # rename(2) replaces an empty folder and refuses one that is not (ENOTEMPTY).
        os.rename(tmp, path)
    finally:
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)


class PartialFile:
    """A text file that grows at ``PATH.partial`` and becomes ``PATH`` on :meth:`commit`;
    :meth:`discard` removes it (an interrupted run leaves nothing behind)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.partial = partial_path(path)
        _check_target(path, "")
        _check_target(path, "", partial=True)
        # A regular PATH.partial is a leftover of a run that was killed: start afresh.
        self.partial.unlink(missing_ok=True)
        fd = os.open(self.partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        self.file: IO[str] = os.fdopen(fd, "w", encoding="utf-8", newline="\n")

    def write(self, text: str) -> None:
        self.file.write(text)

    def commit(self) -> None:
        """Make the file complete at ``PATH`` (synced to disk first)."""
        try:
            _finish(self.file, self.partial, self.path)
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        """Remove the unfinished file."""
        self.file.close()
        self.partial.unlink(missing_ok=True)
