"""Reading and writing the user's files safely (io.files builds the formats' reading on it).

Reading: only regular files (after following symlinks), so a FIFO cannot hang
the loader and a link to /dev/zero cannot fill memory; and no file over a size
cap (MAX_BYTES unless the caller raises it). Then UTF-8 text and JSON as
`tokenizers` reads them. Errors name the file.

Writing: never onto one of the inputs (same resolved path, or same device and
inode: hard links), and always through a temporary file in the same folder that
is renamed into place, so a crash or Ctrl-C never leaves half a file behind.
"""
from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from .errors import SubwordLabError

__all__ = ["MAX_BYTES", "size_cap", "check_file_kind", "check_regular", "read_bytes", "read_text", "same_file",
           "check_not_input", "check_writable", "atomic_write", "AtomicTextWriter"]

# The largest real tokenizer files are about 30 MB; 512 MB leaves room for big
# vocabularies and still refuses a runaway file before it is read.
MAX_BYTES = 512 * 1024 * 1024
# The cap for the load() under way (its max_bytes= option), seen by every reader.
_CAP: ContextVar[int | None] = ContextVar("subword_lab_max_bytes", default=None)


@contextmanager
def size_cap(max_bytes: int | None) -> Iterator[None]:
    """Within this block, files may be up to `max_bytes` (None: the default cap)."""
    token = _CAP.set(None if max_bytes is None else _size_cap(max_bytes))
    try:
        yield
    finally:
        _CAP.reset(token)


def _size_cap(max_bytes: int | None) -> int:
    if max_bytes is None:
        return _CAP.get() or MAX_BYTES
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
        raise SubwordLabError(f"must be a positive number of bytes, got {max_bytes!r}",
                              field="max_bytes")
    return max_bytes


def _describe(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def check_file_kind(path: str | os.PathLike[str]) -> os.stat_result:
    """Refuse what is not a regular file after following symlinks; its stat."""
    try:
        info = os.stat(path)  # follows symlinks: what would really be read
    except OSError as exc:
        raise SubwordLabError(f"cannot read: {exc.strerror}", path=path) from None
    if not stat.S_ISREG(info.st_mode):
        raise SubwordLabError(f"{_describe(info.st_mode)}, not a regular file; "
                              "only regular files are read", path=path)
    return info


def check_regular(path: str | os.PathLike[str], max_bytes: int | None = None) -> int:
    """Refuse what is not a regular file (after symlinks) or is over the size cap."""
    cap = _size_cap(max_bytes)
    info = check_file_kind(path)
    if info.st_size > cap:
        raise SubwordLabError(f"the file is {info.st_size:,} bytes, over the limit of "
                              f"{cap:,} bytes (raise it with max_bytes= or --max-file-size)",
                              path=path)
    return cap


def read_bytes(path: str | os.PathLike[str], max_bytes: int | None = None) -> bytes:
    """The bytes of a regular file of at most `max_bytes` (default MAX_BYTES)."""
    path = Path(path)
    cap = check_regular(path, max_bytes)
    try:
        # O_NONBLOCK: if the file was swapped for a FIFO since stat, do not hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise SubwordLabError("not a regular file; only regular files are read",
                                      path=path)
            # read(cap + 1) would allocate the whole cap first (0.7 ms for 512 MB):
            # read what the file holds, then whatever it grew by, up to the cap.
            data = handle.read(min(cap, info.st_size) + 1)
            if len(data) <= cap:
                data += handle.read(cap + 1 - len(data))
    except OSError as exc:
        raise SubwordLabError(f"cannot read: {exc.strerror}", path=path) from None
    if len(data) > cap:
        raise SubwordLabError(f"the file is over the limit of {cap:,} bytes (raise it "
                              "with max_bytes= or --max-file-size)", path=path)
    return data


def read_text(path: str | os.PathLike[str], what: str, max_bytes: int | None = None) -> str:
    data = read_bytes(path, max_bytes)
    if not data.strip():
        raise SubwordLabError(f"empty file (expected {what})", path=path)
    nul = data.find(b"\x00")
    if nul >= 0:
        raise SubwordLabError(f"binary data (a NUL byte), not UTF-8 text (expected {what})", path=path,
                              field=f"byte {nul}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SubwordLabError(f"not UTF-8 text (expected {what})", path=path,
                              field=f"byte {exc.start}") from None


# -- writing --------------------------------------------------------------------------------

def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Do two paths name the same file (resolved path, or same device and inode)?"""
    try:
        if Path(a).resolve() == Path(b).resolve():
            return True
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, RuntimeError):
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def check_not_input(output: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]],
                    field: str | None = None) -> None:
    """Refuse to write `output` if it is one of `inputs` (the user's data)."""
    for source in inputs:
        if same_file(output, source):
            raise SubwordLabError(f"is the input file {source}; refusing to overwrite it",
                                  path=output, field=field)


def _check_target(path: str | os.PathLike[str], field: str | None) -> Path:
    text = os.fspath(path)
    if not text:
        raise SubwordLabError("the output path is empty", field=field)
    path = Path(text)
    if path.is_dir():
        raise SubwordLabError("is a folder; give a file name", path=path, field=field)
    if os.path.exists(path) and not os.path.isfile(path):
        raise SubwordLabError("exists and is not a regular file; refusing to replace it",
                              path=path, field=field)
    folder = path.parent
    if not folder.is_dir():
        raise SubwordLabError(f"the folder {folder} does not exist", path=path, field=field)
    return path


def check_writable(path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = (),
                   field: str | None = None) -> Path:
    """Refuse early an output that cannot be written or is one of the inputs."""
    path = _check_target(path, field)
    check_not_input(path, inputs, field)
    return path


def atomic_write(path: str | os.PathLike[str], data: str | bytes,
                 inputs: Iterable[str | os.PathLike[str]] = (),
                 field: str | None = None) -> None:
    """Write `data` (str as UTF-8, or bytes) to `path` all at once or not at all.

    The bytes go to a temporary file next to `path`, which is then renamed over
    it (os.replace); on any error the temporary file is removed. If `path` is a
    symlink, the file it points to is replaced.
    """
    path = check_writable(path, inputs, field)
    if isinstance(data, str):
        data = data.encode("utf-8")
    target = Path(os.path.realpath(path))
    fd, temp = _temp_beside(target, field)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        _keep_mode(target, temp)
        os.replace(temp, target)
    except BaseException as exc:
        _remove(temp)
        if isinstance(exc, OSError):
            raise SubwordLabError(f"cannot write: {exc.strerror}", path=path,
                                  field=field) from None
        raise


def _temp_beside(target, field):
    try:
        return tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as exc:
        raise SubwordLabError(f"cannot write in {target.parent}: {exc.strerror}",
                              path=target, field=field) from None


def _keep_mode(target, temp):
    """A replaced file keeps its permissions; a new one gets the usual ones (umask)."""
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temp, mode)


def _remove(temp):
    try:
        os.unlink(temp)
    except OSError:
        pass


class AtomicTextWriter:
    """A text file written line by line that appears only when closed without error.

    `--events` streams lines during training: they go to a temporary file that
    replaces the target at the end; on error or Ctrl-C it is removed.
    """

    def __init__(self, path, inputs=(), field=None):
        self.path = check_writable(path, inputs, field)
        self.field = field
        self.target = Path(os.path.realpath(self.path))
        fd, self.temp = _temp_beside(self.target, field)
        self.handle = os.fdopen(fd, "w", encoding="utf-8")

    def write(self, text):
        self.handle.write(text)

    def commit(self):
        try:
            self.handle.close()
            _keep_mode(self.target, self.temp)
            os.replace(self.temp, self.target)
        except OSError as exc:
            _remove(self.temp)
            raise SubwordLabError(f"cannot write: {exc.strerror}", path=self.path,
                                  field=self.field) from None

    def discard(self):
        try:
            self.handle.close()
        finally:
            _remove(self.temp)
