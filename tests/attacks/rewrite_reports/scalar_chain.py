"""Tries to rewrite pytest's reports and the kit's results from inside the student's process."""
import os
import sys

try:
    import _pytest.reports
    _pytest.reports.TestReport.outcome = "passed"
except Exception:
    pass
for name, module in list(sys.modules.items()):
    if name.startswith(("autograder", "pytest", "_pytest")):
        for attr in ("outcome", "passed", "failed"):
            try:
                setattr(module, attr, "passed")
            except Exception:
                pass
FAKE = '{"students": [{"id": "rewrite_reports", "score": 100, "max_score": 100}]}'
for folder in ("__OUT__", "__CLASS__", "__REPO__", os.getcwd(), "/tmp", os.path.expanduser("~")):
    try:
        with open(os.path.join(folder, "results.json"), "w") as handle:
            handle.write(FAKE)
    except Exception:
        pass


def scalar_gradient_chain(depth, layer_scale):
    return -1.0
