"""One command at a time in a run directory: ``train`` holds ``train.lock`` there while it starts
or resumes a run, and a second ``train`` of that directory refuses in one line naming the holder.

The lock is ``fcntl.flock`` on the file, not a PID written and compared: the kernel releases a
flock when its holder's process ends however it ends (a crash, ``kill -9``), so a lock left by a
killed run is simply taken over by the next command, with no guessing whether a PID is alive or on
which host.  The file names its holder (PID and host) for the refusal's message, and is removed
when the holder is done.  On NFS, Linux maps flock to the server's byte-range locks.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
from collections.abc import Iterator
from pathlib import Path

from dice_envs.training.config import ConfigError

LOCK_FILE = "train.lock"
"""The lock's file in a run directory while a command trains there."""


class RunDirectoryBusy(ConfigError):
    """Another command holds the run directory's lock."""


@contextlib.contextmanager
def run_lock(root: Path) -> Iterator[None]:
    """Hold ``root``'s lock while the block runs (``root`` must exist), or raise ``RunDirectoryBusy``
    at once, leaving the directory as it was."""
    path = root / LOCK_FILE
    descriptor = _lock_file(path)
    try:
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"pid {os.getpid()} on host {socket.gethostname()}\n".encode())
        yield
    finally:
        path.unlink(missing_ok=True)  # before the unlock: a waiting command then locks a new file
        os.close(descriptor)


def _lock_file(path: Path) -> int:
    """A descriptor of ``path`` holding its flock (the file made if missing)."""
    while True:
        existed = path.exists()
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:  # a directory this user may not write, say
            raise ConfigError(f"cannot lock run directory {str(path.parent)!r}: {error.strerror}") from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            busy = _busy(descriptor, path)
            os.close(descriptor)
            raise busy from None
        except OSError as error:  # a file system without locks
            os.close(descriptor)
            if not existed:
                path.unlink(missing_ok=True)
            raise ConfigError(f"cannot lock run directory {str(path.parent)!r}: {error.strerror}") from None
        if _still_named(descriptor, path):
            return descriptor
        os.close(descriptor)  # its holder removed the file as we opened it: lock the one there now


def _busy(descriptor: int, path: Path) -> RunDirectoryBusy:
    holder = os.pread(descriptor, 200, 0).decode(errors="replace").strip() or "another command starting up"
    return RunDirectoryBusy(
        f"run directory {str(path.parent)!r} is in use by another dice-envs train ({holder}, lock {LOCK_FILE}); wait for it to finish or stop it"
    )


def _still_named(descriptor: int, path: Path) -> bool:
    try:
        named = path.stat()
    except FileNotFoundError:
        return False
    opened = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)
