"""The save and the command log beside it: what a restarted peer needs to repeat exactly
what it already said.

Tests: tests/net/table/test_session.py (resume), tests/store/test_table_save.py.
"""

from __future__ import annotations

from typing import Any

from net.transport.messages import Wire

import logging
from pathlib import Path

from net.table.dialer import Dialer
from net.table.shared import Identity, StartRecord, TableState
from store.table_save import CommandLog, SaveJournal

log = logging.getLogger("net.table.session")


class Persistence:
    """Writes my save after each of my choices and the command log after each step."""

    def __init__(self, shared: TableState, me: Identity, start: StartRecord,
                 dialer: Dialer) -> None:
        self._shared = shared
        self._me = me
        self._start = start
        self._dialer = dialer                       # my listening port goes in the save
        self._log_file: CommandLog | None = None
        self._save_journal: SaveJournal | None = None

    def start_wire(self) -> Wire:
        """The start record as a rejoining peer or a spectator is sent it (`CaughtUp`)."""
        assert self._start.info is not None
        return {**self._start.info,
                "chain_ends": [[s, e] for s, e in sorted(self._start.chain_ends.items())],
                "token_hashes": [[s, t] for s, t in sorted(self._start.token_hashes.items())]}

    def save(self) -> None:
        """My secrets and my latest choices, atomically (the log goes to `<save>.log`)."""
        table = self._shared
        if self._me.save_path is None or self._start.info is None or table.my_seat is None \
                or self._start.chain is None:
            return
        ls = table.lockstep
        plans = ls.my_plans if ls else {}
        current = ls.step if ls else 0
        save = {"start": self.start_wire(), "seat": table.my_seat,
                "peer": self._me.peer_id, "name": self._me.name, "code": self._me.code or "",
                "secret": self._start.chain.secret, "token": self._start.token,
                "seat_key": self._me.seat_key.seed if self._me.seat_key is not None else None,
                "plans": [[s, n, w] for s, (n, w) in sorted(plans.items())],   # this round's
                "outbox": [[s, m] for s, m in sorted(ls.sent.items()) if s >= current - 1]
                if ls else [],
                "step": current,
                "addresses": [[s, h, p] for s, (h, p) in sorted(self._start.addresses.items())],
                "listen_port": self._dialer.listen_port}
        try:
            if self._save_journal is None or self._save_journal.path != Path(self._me.save_path):
                self._save_journal = SaveJournal(self._me.save_path)
            self._save_journal.write(save)
        except OSError as exc:
            log.error("could not write the save %s: %s", self._me.save_path, exc)

    def append_log(self, entry: Wire) -> None:
        """The command log next to the save: one msgpack entry appended per step."""
        table = self._shared
        if self._me.save_path is None or table.my_seat is None:
            return
        try:
            if self._log_file is None:
                assert table.lockstep is not None
                self._log_file = CommandLog(self._me.save_path + ".log", table.lockstep.log[:-1])
            self._log_file.append(entry)
        except OSError as exc:
            log.error("could not append to the command log: %s", exc)

    def close(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        if self._save_journal is not None:
            self._save_journal.close()
            self._save_journal = None
