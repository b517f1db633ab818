"""`join` without an address never dials the first announcement silently."""

from net.reach.discovery import Table
from net.reach.table_choice import choose_table

A = Table("ann", "10.0.0.2:7531", 4)
B = Table("bob", "10.0.0.3:7531", 3)


def never(question):
    raise AssertionError("asked although the choice was clear")


def test_several_tables_and_nobody_to_ask_dials_nothing_and_lists_them():
    c = choose_table([A, B], None, None)
    assert c.address is None
    assert "ann at 10.0.0.2:7531" in c.message and "bob" in c.message and "--table" in c.message


def test_several_tables_are_asked_about():
    questions = []
    c = choose_table([A, B], None, lambda q: questions.append(q) or "2")
    assert c.address == B.address and "1. ann" in questions[0] and "2. bob" in questions[0]
    assert choose_table([A, B], None, lambda q: "7").address is None
    assert "not a table number" in choose_table([A, B], None, lambda q: "x").message


def test_a_table_by_name():
    assert choose_table([A, B], "BOB", never).address == B.address
    missing = choose_table([A, B], "cy", never)
    assert missing.address is None and "no table called 'cy'" in missing.message
    twins = choose_table([A, Table("ann", "10.0.0.9:7531", 3)], "ann", never)
    assert twins.address is None and "2 tables are called 'ann'" in twins.message


def test_one_table_is_named_before_it_is_dialed_and_none_is_an_error():
    c = choose_table([A], None, never)
    assert c.address == A.address and "ann at 10.0.0.2:7531" in c.message
    assert choose_table([], None, never).address is None
