#!/bin/sh
# Regenerates docs/report.png and docs/dashboard.png from the sample class, with the browser flags
# tests/test_browser.py uses. Run from the kit's root: sh docs/screenshots.sh
set -eu
out=$(mktemp -d)
python grade.py grade examples/class --out "$out/out" --seed 7 --allow-unsandboxed > /dev/null
for page in reports/ben_carter.html:report index.html:dashboard; do
  chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$out/profile-${page#*:}" \
    --window-size=1100,1500 --screenshot="docs/${page#*:}.png" "file://$out/out/${page%%:*}" 2> /dev/null
done
rm -rf "$out"
