"""A throwaway PostgreSQL cluster in a temporary folder (the team tests and benchmarks).

``initdb`` + ``pg_ctl`` on a free port, listening on 127.0.0.1 and a socket in the folder.
The server refuses to run as root: when this process is root, the binaries run as the
``postgres`` system user (``runuser -u postgres --``) and the folder is handed to it.
:func:`find_binaries` says why when a cluster cannot be made (the tests skip with that reason).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

SUPERUSER = "hadj_admin"


def find_binaries() -> tuple[Path | None, str]:
    """The folder with initdb/pg_ctl/postgres, or ``None`` and why not."""
    candidates = [os.environ.get("HIERADJ_PG_BIN", "")]
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    which = shutil.which("pg_ctl")
    if which:
        candidates.append(str(Path(which).parent))
    for c in candidates:
        if c and all((Path(c) / b).exists() for b in ("initdb", "pg_ctl", "postgres")):
            if os.geteuid() == 0:
                try:
                    import pwd

                    pwd.getpwnam("postgres")
                except KeyError:
                    return None, "running as root and there is no 'postgres' system user to run the server"
                if shutil.which("runuser") is None:
                    return None, "running as root and runuser is missing"
            return Path(c), ""
    return None, ("PostgreSQL server binaries (initdb, pg_ctl, postgres) not found: install the Debian "
                  "package postgresql or set HIERADJ_PG_BIN")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LocalCluster:
    """A running throwaway server; :meth:`stop` (or ``with``) removes it."""

    bindir: Path
    folder: Path
    port: int
    pid: int | None = None
    _as_postgres: bool = field(default=False, repr=False)

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def _run(self, *args: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self._as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=timeout,
                              cwd="/")

    @classmethod
    def start(cls, *, settings: dict[str, str] | None = None, passwords: bool = False) -> LocalCluster:
        """A new cluster.  With ``passwords`` TCP logins need their password (scram-sha-256, as a
        real server would ask); the superuser connects through the socket (:meth:`admin`)."""
        bindir, why = find_binaries()
        if bindir is None:
            raise RuntimeError(why)
        folder = Path(tempfile.mkdtemp(prefix="hadj-pg-"))
        cluster = cls(bindir, folder, free_port(), _as_postgres=os.geteuid() == 0)
        if cluster._as_postgres:
            shutil.chown(folder, "postgres", "postgres")
        try:
            auth = ["--auth-local=trust", "--auth-host=scram-sha-256"] if passwords else ["--auth=trust"]
            cluster._run("initdb", "-D", str(cluster.data), "-U", SUPERUSER, *auth,
                         "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
            conf = {"listen_addresses": "'127.0.0.1'", "port": str(cluster.port),
                    "unix_socket_directories": f"'{folder}'", "fsync": "on",
                    "max_connections": "100", "shared_buffers": "64MB", "log_min_messages": "warning"}
            conf.update(settings or {})
            with open(cluster.data / "postgresql.conf", "a", encoding="utf-8") as fh:
                fh.writelines(f"{k} = {v}\n" for k, v in conf.items())
            cluster.start_server()
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def start_server(self) -> None:
        """Start (or restart after :meth:`kill`) the server and wait until it takes connections."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w",
                  "-t", "60", "start")
        pidfile = self.data / "postmaster.pid"
        self.pid = int(pidfile.read_text().split()[0])

    def kill(self) -> None:
        """Kill the server at once (SIGKILL of the postmaster and its children): a crash."""
        if self.pid is None:
            return
        import signal

        children = subprocess.run(["pgrep", "-P", str(self.pid)], capture_output=True,
                                  text=True).stdout.split()
        for pid in [self.pid, *map(int, children)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        self.pid = None
        time.sleep(0.2)

    def url(self, user: str = SUPERUSER, db: str = "postgres", project: str | None = None) -> str:
        base = f"postgresql://{user}@127.0.0.1:{self.port}/{db}"
        return base + (f"?project={project}" if project else "")

    def admin(self, db: str = "postgres"):  # type: ignore[no-untyped-def]
        import psycopg

        return psycopg.connect(host=str(self.folder), port=self.port, user=SUPERUSER, dbname=db,
                               autocommit=True)

    def stop(self) -> None:
        if self.data.exists() and self.pid is not None:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)
        self.pid = None
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> LocalCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
