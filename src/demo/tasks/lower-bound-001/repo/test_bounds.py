from bounds import lower_bound


def expect(actual, expected):
    assert actual == expected, f"expected {expected!r}, got {actual!r}"


def test_lower_bound_of_4():
    expect(lower_bound([1, 3, 5, 7], 4), 2)


def test_lower_bound_of_7():
    expect(lower_bound([1, 3, 5, 7], 7), 3)


def test_lower_bound_of_0():
    expect(lower_bound([1, 3, 5, 7], 0), 0)
