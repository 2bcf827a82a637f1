"""Runs the test_* functions of Tests/Serve/test_*.py against the release photocap (PHOTOCAP),
each bounded in time, and prints a summary; exits 1 when one fails."""
import importlib
import os
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
LIMIT = int(os.environ.get("SERVE_TEST_SECONDS", "150"))


def timeout(signum, frame):
    raise TimeoutError(f"more than {LIMIT} s")


def main():
    selected = sys.argv[1:]
    folder = os.path.dirname(os.path.abspath(__file__))
    modules = sorted(name[:-3] for name in os.listdir(folder) if name.startswith("test_") and name.endswith(".py"))
    passed, failed = [], []
    signal.signal(signal.SIGALRM, timeout)
    for module_name in modules:
        module = importlib.import_module(module_name)
        for name in sorted(dir(module)):
            if not name.startswith("test_") or (selected and not any(s in name for s in selected)):
                continue
            started = time.monotonic()
            signal.alarm(LIMIT)
            try:
                getattr(module, name)()
                passed.append(name)
                print(f"✔ {module_name}.{name} ({time.monotonic() - started:.1f} s)", flush=True)
            except Exception:
                failed.append(name)
                print(f"✘ {module_name}.{name} ({time.monotonic() - started:.1f} s)", flush=True)
                traceback.print_exc()
            finally:
                signal.alarm(0)
    print(f"serve tests: {len(passed)} passed, {len(failed)} failed" + (f": {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
