from bounds import lower_bound


def expect(actual, expected):
    assert actual == expected, f"expected {expected!r}, got {actual!r}"


def test_hidden_past_the_end():
    expect(lower_bound([1, 3, 5, 7], 8), 4)
    expect(lower_bound([], 8), 0)


def test_hidden_every_position():
    a = [-4, 0, 2, 9, 11, 30]
    for i, x in enumerate(a):
        expect(lower_bound(a, x), i)
        expect(lower_bound(a, x - 1), i)


def test_hidden_duplicates():
    a = [1, 2, 2, 2, 3, 3, 8]
    expect(lower_bound(a, 2), 1)
    expect(lower_bound(a, 3), 4)
    expect(lower_bound(a, 4), 6)
