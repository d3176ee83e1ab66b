"""What a server follower still reads: ids above the highest read and the gaps a slower
transaction may still fill; a notification naming only ids read costs nothing."""

from __future__ import annotations

from hieradjudicate.app.session.horizon import FAR, Horizon


def test_a_range_of_ids_already_read_names_nothing_new() -> None:
    h = Horizon(100)
    assert not h.names_something_new(1, 100) and not h.names_something_new(-5, 3)
    assert h.names_something_new(1, 101) and h.names_something_new(101, FAR)
    assert h.ranges() == [(101, FAR)]


def test_a_gap_stays_to_read_until_the_transactions_that_could_fill_it_ended() -> None:
    h = Horizon(100)
    h.read([102], xmin=50, xmax=60)  # 101 was taken by a transaction still running (xid 50)
    assert h.names_something_new(101, 101) and not h.names_something_new(102, 102)
    assert h.ranges() == [(101, 101), (103, FAR)] and h.settling
    h.read([], xmin=55, xmax=61)  # still running
    assert h.safe == 100
    h.read([101], xmin=61, xmax=61)  # it committed; everything older than xmax 60 ended
    h.read([], xmin=62, xmax=62)  # ... and once more (an id taken before its transaction id)
    assert (h.safe, h.seen, h.settling) == (102, [], False)
    assert not h.names_something_new(1, 102) and h.ranges() == [(103, FAR)]


def test_a_transaction_left_open_holds_back_at_most_lag_ids() -> None:
    h = Horizon(0)
    h.LAG = 10
    h.read(range(1, 51), xmin=5, xmax=100)  # xid 5 stays open
    h.read(range(51, 101), xmin=5, xmax=200)
    assert h.safe == 90 and h.seen == list(range(91, 101))
    assert not h.names_something_new(1, 90)


def test_many_small_gaps_are_read_as_one_range() -> None:
    h = Horizon(0)
    h.read(range(2, 200, 2), xmin=1, xmax=300)
    assert h.ranges() == [(1, 198), (199, FAR)]
