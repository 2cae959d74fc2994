def search_rotated(a, target):
    low, high = 0, len(a) - 1
    while low <= high:
        mid = (low + high) // 2
        if a[mid] == target:
            return mid
        if a[low] < a[mid]:
            if a[low] <= target < a[mid]:
                high = mid - 1
            else:
                low = mid + 1
        else:
            if a[mid] < target < a[high]:
                low = mid + 1
            else:
                high = mid - 1
    return -1
