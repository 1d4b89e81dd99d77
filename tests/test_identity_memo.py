"""verify.base.identity_memo: an answer is kept for the same immutable object only."""

from verify.base.identity_memo import IdentityMemo


def test_an_answer_is_kept_for_the_same_tuple_and_key_only():
    memo, calls = IdentityMemo(), []

    def compute():
        calls.append(1)
        return len(calls)

    grid = ((1, 0), (0, 1))
    assert memo(grid, "k", compute) == 1
    assert memo(grid, "k", compute) == 1  # the same object: read back
    assert memo(grid, "other", compute) == 2  # another key
    equal = tuple(tuple(row) for row in [[1, 0], [0, 1]])  # built, not a literal (constants are shared)
    assert equal == grid and equal is not grid
    assert memo(equal, "k", compute) == 3  # equal, but another object


def test_a_list_is_never_kept_since_it_may_change_in_place():
    memo, calls = IdentityMemo(), []
    rows = [[1, 0], [0, 1]]
    for _ in range(3):
        memo(rows, None, lambda: calls.append(1))
    assert len(calls) == 3
    nested = ([1, 0], [0, 1])  # a tuple of lists changes in place too
    for _ in range(2):
        memo(nested, None, lambda: calls.append(1))
    assert len(calls) == 5


def test_it_holds_at_most_its_size():
    memo = IdentityMemo(size=3)
    kept = [((i,),) for i in range(10)]
    for grid in kept:
        memo(grid, None, lambda: 0)
    assert len(memo._answers) <= 3
