"""Knows where the output goes and tries to write its own results, gradebook and report there."""
import os

OUT = "__OUT__"
for name, text in (("results.json", '{"students": []}'), ("gradebook.csv", "id,total\nwrite_results,100\n"),
                   ("reports/write_results.html", "<h1>100/100</h1>")):
    try:
        os.makedirs(os.path.dirname(os.path.join(OUT, name)), exist_ok=True)
        with open(os.path.join(OUT, name), "w") as handle:
            handle.write(text)
    except Exception:
        pass
for folder in ("__CANARY__", "__CLASS__", "__REPO__"):
    try:
        with open(os.path.join(folder, "written-by-write_results"), "w") as handle:
            handle.write("x")
    except Exception:
        pass


def scalar_gradient_chain(depth, layer_scale):
    return 0.5
