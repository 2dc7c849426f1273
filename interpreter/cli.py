import sys
from .scenario import run_case
def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    fails = 0
    for p in argv[1:]:
        r = run_case(p); print(r); fails += not r.passed
    return 1 if fails else 0
