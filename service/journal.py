"""The match journal: every event, appended and synced before anything else happens.

One SQLite file per match (``journal.sqlite`` in the output folder), WAL mode with
``synchronous=FULL``: once :meth:`Journal.append` returns, the events survive a
``kill -9`` or a power cut. The match's settings are stored with it (and, under other
keys of the ``meta`` table, what the referee's eyes learnt: :meth:`Journal.meta`), so a
referee restarted on the same folder picks the match up where it stood
(:meth:`gammoneye.engine.referee.Referee.resume`). ``events.jsonl`` and
``match.mat`` beside it are views of the journal, rewritten from it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gammoneye.engine.events import Event, dumps_event, loads_event

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, line TEXT NOT NULL);
"""


class JournalError(ValueError):
    """A journal that does not belong to this match, or is damaged."""


class Journal:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        # Callers serialise their use (a table does it under its lock), so any thread may.
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- meta: the match's settings, and what the referee learnt along the way -------------
    def meta(self, key: str) -> Any:
        """The JSON value stored under ``key``, or ``None``.

        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "j.sqlite") as j:
        ...     j.set_meta("eyes", {"colours": ["dark", "light"]})
        ...     j.meta("eyes"), j.meta("nothing")
        ({'colours': ['dark', 'light']}, None)
        """
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return json.loads(row[0])
        except json.JSONDecodeError as exc:
            raise JournalError(f"{self.path}: meta {key!r} is not JSON ({exc.msg})") from None

    def set_meta(self, key: str, value: Any) -> None:
        """Store ``value`` (JSON-able) under ``key``, replacing what was there; on disk
        when this returns."""
        self._db.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
            (key, json.dumps(value, sort_keys=True)),
        )

    def settings(self) -> dict[str, Any] | None:
        value = self.meta("settings")
        return None if value is None else dict(value)

    def set_settings(self, settings: dict[str, Any]) -> None:
        self.set_meta("settings", settings)

    # --- events ---------------------------------------------------------------------------
    def append(self, events: Sequence[Event]) -> None:
        """Write ``events`` in one transaction; they are on disk when this returns."""
        if not events:
            return
        cur = self._db.cursor()
        cur.execute("BEGIN IMMEDIATE")
        try:
            cur.executemany(
                "INSERT INTO events (seq, line) VALUES (?, ?)",
                [(e.seq, dumps_event(e)) for e in events],
            )
        except sqlite3.IntegrityError as exc:
            cur.execute("ROLLBACK")
            raise JournalError(
                f"{self.path}: an event with seq {events[0].seq} is already there"
            ) from exc
        cur.execute("COMMIT")

    def events(self) -> list[Event]:
        out = []
        for seq, line in self._db.execute("SELECT seq, line FROM events ORDER BY seq"):
            try:
                out.append(loads_event(line, line=seq + 1))
            except ValueError as exc:
                raise JournalError(f"{self.path}: {exc}") from exc
        return out


class MatchFiles:
    """``events.jsonl`` and ``match.mat`` in ``out``, rewritten (atomically) from the
    match's events, which the journal already holds: views of it, never the record."""

    def __init__(self, out: Path) -> None:
        self.out = out

    def write(self, events: Sequence[Event]) -> None:
        from gammoneye.engine.matfile import write_mat
        from gammoneye.engine.replay import record_from_events
        from gammoneye.service.engine_cli import write_atomically

        write_atomically(self.out / "events.jsonl", "".join(dumps_event(e) + "\n" for e in events))
        try:
            text = write_mat(record_from_events(events))
        except ValueError:
            return  # no game begun yet
        write_atomically(self.out / "match.mat", text)
