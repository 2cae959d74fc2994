# Test runner shared by the environment (dev tests) and the grader (private tests):
# python3 -I -B runner.py TESTS_FILE LINE_BUDGET, with cwd = the repo under test.
#
# Each test gets an iteration guard: a sys.settrace budget of line events. A search that stops making
# progress is stopped by the guard and reported as "over_budget", never as an assertion failure it
# did not produce. The caller adds a wall-clock timeout on the whole process as a second guard.
# One JSON object per line on stdout, flushed as soon as a test ends.
import ast
import importlib.util
import json
import os
import sys


class OverBudget(BaseException):
    """BaseException so that a test's own `except Exception` cannot swallow it."""


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def test_names(path):
    # Read the names without importing, so a module that fails to import still lists its tests.
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]


def display(name):
    return name[len("test_"):].replace("_", " ")


def run_one(fn, budget):
    count = 0

    def local(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
            if count > budget:
                raise OverBudget()
        return local

    sys.settrace(lambda frame, event, arg: local)
    try:
        fn()
        return "passed", None
    except OverBudget:
        return "over_budget", f"exceeded its budget of {budget} line events"
    except AssertionError as e:
        return "failed", str(e) or "assertion failed"
    except Exception as e:
        return "failed", f"{type(e).__name__}: {e}"
    finally:
        sys.settrace(None)


def main():
    path, budget = sys.argv[1], int(sys.argv[2])
    names = test_names(path)
    sys.path.insert(0, os.getcwd())
    try:
        spec = importlib.util.spec_from_file_location("tests_under_run", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as e:
        detail = f"could not import the tests: {type(e).__name__}: {e}"
        for name in names:
            emit({"test": display(name), "outcome": "failed", "detail": detail})
        sys.exit(2)
    ok = True
    for name in names:
        outcome, detail = run_one(getattr(module, name), budget)
        ok = ok and outcome == "passed"
        emit({"test": display(name), "outcome": outcome, "detail": detail})
    sys.exit(0 if ok else 1)


main()
