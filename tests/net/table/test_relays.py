"""What a relay carries: every signed lockstep message a seat originates.

Why a test of the set itself: a message kind added to the protocol but not to the relay
stalls a player that hears a seat only through others (a lone drop claim, a seat that
dropped mid-broadcast). That happened once: the plan messages opened field by field
(`BidOpened`, `FieldOpened`, `PlanUnlocked`) and `HashStated` were signed but not
relayed, and a table where one player had dropped another never finished
(`test_hostile.py::test_a_lone_drop_claim_parts_only_the_claimant_and_the_table_stays_one_game`).
"""

from net.table import drop_claims
from net.lockstep.core import RELAYABLE
from net.lockstep.signatures import SIGNED


def test_every_signed_lockstep_message_is_relayable():
    # a chain commitment and a take-over claim are relayed too, by the session's own
    # paths (`Relays._relayed_chain`, `Takeover.claim_received`): neither is a step's input
    assert RELAYABLE == SIGNED - {"ChainCommitted", "TakeoverClaimed"}


def test_the_session_forwards_what_the_lockstep_takes_from_a_relay():
    assert drop_claims.RELAYABLE is RELAYABLE
