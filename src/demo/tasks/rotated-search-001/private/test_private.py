from rotated import search_rotated


def expect(actual, expected):
    assert actual == expected, f"expected {expected!r}, got {actual!r}"


def test_hidden_every_rotation():
    base = [2, 5, 8, 13, 21, 34]
    for k in range(len(base)):
        a = base[k:] + base[:k]
        for i, x in enumerate(a):
            expect(search_rotated(a, x), i)
        for x in [0, 3, 40]:
            expect(search_rotated(a, x), -1)


def test_hidden_small_arrays():
    expect(search_rotated([], 1), -1)
    expect(search_rotated([1], 1), 0)
    expect(search_rotated([1, 3], 3), 1)
    expect(search_rotated([3, 1], 3), 0)


def test_hidden_target_at_either_end():
    a = [30, 40, 50, 10, 20]
    expect(search_rotated(a, 30), 0)
    expect(search_rotated(a, 20), 4)
    expect(search_rotated(a, 50), 2)
