from insert import search_insert


def expect(actual, expected):
    assert actual == expected, f"expected {expected!r}, got {actual!r}"


def test_insert_5_found():
    expect(search_insert([1, 3, 5, 6], 5), 2)


def test_insert_2():
    expect(search_insert([1, 3, 5, 6], 2), 1)


def test_insert_7():
    expect(search_insert([1, 3, 5, 6], 7), 4)
