from insert import search_insert


def expect(actual, expected):
    assert actual == expected, f"expected {expected!r}, got {actual!r}"


def test_hidden_before_the_start():
    expect(search_insert([1, 3, 5, 6], 0), 0)
    expect(search_insert([2], 1), 0)


def test_hidden_empty():
    expect(search_insert([], 3), 0)


def test_hidden_every_gap():
    a = [-9, -3, 0, 4, 12, 40]
    for i, x in enumerate(a):
        expect(search_insert(a, x), i)
        expect(search_insert(a, x + 1), i + 1)
