"""Echo before reveal (`net.lockstep.echo`, `net.lockstep.plan_messages.PlanMessages.
echo_content`): what an echo's commitments must prove, and what a peer need not check
twice."""

from __future__ import annotations

import pytest

from net.lockstep import echo
from net.lockstep import signatures
from net.lockstep.core import Offence
from tests.net.mesh_harness import TABLE, HostWith
from tests.net.lockstep.test_field_reveal import _plan, _plan_step_mesh, _pump_without


def _echo_from(m, echoer, step, commits):
    """A well-formed echo of `commits` (PlanCommitted messages), signed by `echoer`."""
    items = [[c["seat"], c["lock"], c["fields"], c["sig"]] for c in commits]
    return signatures.sign(m.keys[echoer], TABLE, {
        "type": "CommitsEchoed", "step": step, "seat": echoer, "lock": echo.lock_sum(items),
        "commits": items, "hash": commits[0]["hash"]})


def test_an_echo_carrying_a_commitment_its_seat_did_not_sign_is_refused():
    """An echoed commitment equal to the one a peer holds is not verified again (speed);
    any other is, so a forged one in an echo is still an offence."""
    m = _plan_step_mesh()
    for s in (0, 1, 2):
        m.peers[s].submit(_plan(s, 1))
    _pump_without(m, b"CommitsEchoed")
    p1 = m.peers[1]
    step = p1.step
    held = p1.inbox[step].commits
    assert set(held) == {0, 1, 2}
    checked = []
    verify = p1.host.verify
    p1.host = HostWith(p1.host, verify=lambda seat, msg:
                       checked.append(seat) or verify(seat, msg))
    forged = dict(held[0], fields=[bytes(32)] * len(held[0]["fields"]))   # seat 0's signature
    with pytest.raises(Offence, match="not signed by seat 0"):
        p1.receive(2, _echo_from(m, 2, step, [forged, held[1], held[2]]))
    assert 0 in checked
    checked.clear()
    p1.receive(2, _echo_from(m, 2, step, [held[0], held[1], held[2]]))
    assert checked == [] and 2 in p1.inbox[step].echoes      # the held ones, not re-verified
