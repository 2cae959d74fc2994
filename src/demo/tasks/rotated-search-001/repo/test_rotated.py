from rotated import search_rotated


def expect(actual, expected):
    assert actual == expected, f"expected {expected!r}, got {actual!r}"


def test_find_0_rotated():
    expect(search_rotated([4, 5, 6, 7, 0, 1, 2], 0), 4)


def test_find_3_absent():
    expect(search_rotated([4, 5, 6, 7, 0, 1, 2], 3), -1)


def test_find_1_in_pair():
    expect(search_rotated([3, 1], 1), 1)
