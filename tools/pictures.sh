#!/bin/sh
# Regenerate the README's pictures (docs/img/*.png) from a shared trace:
# tools/pictures.sh BUILD_DIR [TRACE]. Needs rsvg-convert (librsvg2-bin).
set -eu
build=${1:?usage: tools/pictures.sh BUILD_DIR [TRACE]}
top=$(cd "$(dirname "$0")/.." && pwd)
trace=${2:-${TORCHTOP_SHARED:-$top/../shared}/traces/tracelens-h100-bert-small-infer.json.gz}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-pictures.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$build/torchtop" report -q -t roofline --svg "$tmp/roofline.svg" "$trace"
"$build/torchtop" report -q -t folded --metric self_device --svg "$tmp/flame.svg" "$trace"
rsvg-convert -w 800 -o "$tmp/roofline.png" "$tmp/roofline.svg"
rsvg-convert -w 900 -o "$tmp/flame.png" "$tmp/flame.svg"
mkdir -p "$top/docs/img"
python3 "$top/tools/png-palette.py" "$tmp/roofline.png" "$top/docs/img/roofline.png"
python3 "$top/tools/png-palette.py" "$tmp/flame.png" "$top/docs/img/flame.png"
ls -l "$top/docs/img"
