"""A hostile peer on the join-by-code path (issue 47, findings 4 and 5), as a real process.

It speaks magic-wormhole directly (the pip package), with the game's codes
(`net.reach.invite_codes`: six words, the first three naming the mailbox namespace), the way
a modified program would:

- `host MAILBOX OFFER.json ANSWER_FILE`: a hostile host. It opens a code, prints
  `code: WORD-WORD-WORD-WORD-WORD-WORD`, and when a friend's program is there sends the offer in OFFER.json
  (the table's join code, `relay`, and the addresses of its choosing); the friend's answer
  (its bytes, as they came) is written to ANSWER_FILE and it exits.
- `friend MAILBOX CODE REASON.json`: a hostile code holder. It claims the code the real
  host printed, takes the offer and answers "none" with the reason in REASON.json (a JSON
  string: escape sequences, line breaks), then closes.
"""

from __future__ import annotations

import json
import os
import sys

from twisted.internet import defer, task

APP_ID = "shogun-board-game.net/table/v1"     # the game's (net/reach/rendezvous.py)


async def host(reactor, mailbox: str, offer_file: str, answer_file: str) -> None:
    import wormhole
    from net.reach.invite_codes import new_code, new_nameplate
    code = new_code()
    w = wormhole.create(code.app_id(APP_ID), mailbox, reactor, dilation=True,
                        versions={"shogun-table": 1})
    w.set_code(code.wormhole_code(new_nameplate()))
    await w.get_code()
    print(f"code: {code.text}", flush=True)
    await w.get_versions()
    with open(offer_file, "rb") as f:
        w.send_message(f.read())
    answer = await w.get_message()
    with open(answer_file, "wb") as f:
        f.write(answer)
    print(f"answer: {len(answer)} bytes", flush=True)
    try:
        await w.close()
    except Exception:
        pass


async def friend(reactor, mailbox: str, code: str, reason_file: str) -> None:
    # finding the host's nameplate in the code's namespace as the game's friend does
    from net.reach.invite_codes import parse_code
    from net.reach.reach_settings import ReachSettings
    from net.reach.rendezvous import RendezvousOptions, meet_host
    wait = ReachSettings.from_environment(os.environ).answer_wait
    w, offer = await meet_host(reactor, RendezvousOptions(mailbox, answer_wait=wait),
                               parse_code(code))
    print(f"offer: {len(offer)} bytes", flush=True)
    with open(reason_file) as f:
        reason = json.load(f)
    w.send_message(json.dumps({"path": "none", "reason": reason}).encode())
    try:
        await w.close()
    except Exception:
        pass
    print("answered", flush=True)


def main(reactor, role: str, *args: str):
    run = host if role == "host" else friend
    return defer.Deferred.fromCoroutine(run(reactor, *args))


if __name__ == "__main__":
    task.react(main, sys.argv[1:])
