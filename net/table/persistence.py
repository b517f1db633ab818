"""The save and the command log beside it: what a restarted peer needs to repeat exactly
what it already said."""

from __future__ import annotations

import logging
from pathlib import Path

from store.table_save import CommandLog, SaveJournal

log = logging.getLogger("net.table.session")


class Persistence:
    """Mixed into `net.table.session.TableSession`."""

    def _save(self) -> None:
        """My secrets and my latest choices, atomically (the log goes to `<save>.log`)."""
        if self.save_path is None or self.start_info is None or self.my_seat is None \
                or self.chain is None:
            return
        ls = self.lockstep
        plans = ls.my_plans if ls else {}
        current = ls.step if ls else 0
        save = {"start": self._start_wire(), "seat": self.my_seat,
                "peer": self.peer_id, "name": self.name, "code": self.code or "",
                "secret": self.chain.secret, "token": self.token,
                "seat_key": self.seat_key.seed if self.seat_key is not None else None,
                "plans": [[s, n, w] for s, (n, w) in sorted(plans.items())],   # this round's
                "outbox": [[s, m] for s, m in sorted(ls.sent.items()) if s >= current - 1]
                if ls else [],
                "step": current,
                "addresses": [[s, h, p] for s, (h, p) in sorted(self.addresses.items())],
                "listen_port": self.listen_port}
        try:
            if self._save_journal is None or self._save_journal.path != Path(self.save_path):
                self._save_journal = SaveJournal(self.save_path)
            self._save_journal.write(save)
        except OSError as exc:
            log.error("could not write the save %s: %s", self.save_path, exc)

    def _append_log(self, entry: dict) -> None:
        """The command log next to the save: one msgpack entry appended per step."""
        if self.save_path is None or self.my_seat is None:
            return
        try:
            if self._log_file is None:
                self._log_file = CommandLog(self.save_path + ".log", self.lockstep.log[:-1])
            self._log_file.append(entry)
        except OSError as exc:
            log.error("could not append to the command log: %s", exc)
