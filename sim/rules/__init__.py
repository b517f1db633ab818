"""The rules of Shogun, one module per rule family (`../shared/spec/shogun-rules.md`).

`sim/game.py` wires them into a stage table. Each module opens with the rule ids it
implements, so a reader looking for a rule finds it by name:

    setup     R-COMP, R-SETUP-1...4, R-SETUP-6 (the tower fill), R-SETUP-8
    draft     R-SETUP-5
    rounds    R-ROUND, R-SETUP-7, R-EVENT-2, R-ACTCARD, R-SPECIAL-1
    planning  R-PLAN
    bidding   R-BID, R-EVENT-2 (the round's event)
    actions   R-EXEC-1...8, R-ACTCARD-2 (rolling reveal), R-EVENT-1/3, R-SPECIAL-3
    movement  R-EXEC-9...12
    battle    R-BATTLE
    winter    R-WINTER-1...3
    scoring   R-WINTER-4, R-ROUND-4, R-END

Stage functions take `(state, events)`, change the state copy that `apply` made, and
return the next stage's name to go on, or a `Decision` to wait for. Command and chance
handlers record the answer; the stage that waited decides what follows.

Tests: tests/sim/rules/ (test functions are named for their rule ids).
"""
