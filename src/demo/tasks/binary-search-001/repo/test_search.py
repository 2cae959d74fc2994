from search import search


def expect(actual, expected):
    assert actual == expected, f"expected {expected!r}, got {actual!r}"


def test_find_3():
    expect(search([1, 3, 5], 3), 1)


def test_find_6():
    expect(search([1, 3, 5], 6), -1)


def test_find_0():
    expect(search([1, 3, 5], 0), -1)
