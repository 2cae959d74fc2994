from search import search


def expect(actual, expected):
    assert actual == expected, f"expected {expected!r}, got {actual!r}"


def test_hidden_every_index_of_a_longer_array():
    a = [-7, -2, 0, 4, 9, 13, 21, 34]
    for i, x in enumerate(a):
        expect(search(a, x), i)


def test_hidden_absent_between_elements():
    a = [-7, -2, 0, 4, 9, 13, 21, 34]
    for x in [-8, -5, 1, 10, 22, 35]:
        expect(search(a, x), -1)


def test_hidden_empty_and_single():
    expect(search([], 4), -1)
    expect(search([4], 4), 0)
    expect(search([4], 5), -1)
    expect(search([4], 3), -1)


def test_hidden_two_elements():
    expect(search([2, 8], 2), 0)
    expect(search([2, 8], 8), 1)
    expect(search([2, 8], 5), -1)
