#!/usr/bin/env bash
# screenshot.sh: look at the rendered book as a reader would, in light and dark mode, with Debian's
# headless Chromium (apt-get install chromium). Writes <page>-light.png and <page>-dark.png.
#
#   bash book/tools/screenshot.sh [-w WIDTH] [-h HEIGHT] [HTML_DIR [OUT_DIR [PAGE.html ...]]]
#
# Defaults: build/book/html, build/book/screenshots, the front page, the methodology page and the
# first two step pages of the first part that has a step with a table. Open the PNGs and look.
set -euo pipefail
width=1280 height=2400
while getopts "w:h:" opt; do
  case $opt in
    w) width=$OPTARG ;;
    h) height=$OPTARG ;;
    *) echo "usage: $0 [-w WIDTH] [-h HEIGHT] [HTML_DIR [OUT_DIR [PAGE.html ...]]]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
html_dir=$(realpath "${1:-build/book/html}")
out_dir=${2:-build/book/screenshots}
shift $(( $# > 2 ? 2 : $# ))
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "screenshot: chromium not found (apt-get install chromium)" >&2
  exit 2
fi
if [ ! -f "$html_dir/index.html" ]; then
  echo "screenshot: $html_dir/index.html not found: render the book first" \
       "(cmake --build --preset default --target book)" >&2
  exit 2
fi
pages=("$@")
if [ ${#pages[@]} -eq 0 ]; then
  pages=(index.html)
  [ -f "$html_dir/methodology.html" ] && pages+=(methodology.html)
  # the first two step pages (the tree's first part with steps), from the navigation data
  mapfile -t steps < <(grep -ho '"[a-z0-9_]*\.html"' "$html_dir"/part_*.js 2>/dev/null |
                       tr -d '"' | head -n 2)
  pages+=("${steps[@]}")
fi
mkdir -p "$out_dir"
common=(--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking
        --disable-component-update --disable-sync --hide-scrollbars
        --virtual-time-budget=8000 "--window-size=$width,$height")
for page in "${pages[@]}"; do
  name=${page%.html}
  for mode in light dark; do
    extra=()
    [ "$mode" = dark ] && extra=(--force-dark-mode "--blink-settings=preferredColorScheme=0")
    "$browser" "${common[@]}" "${extra[@]}" "--screenshot=$out_dir/$name-$mode.png" \
      "file://$html_dir/$page" >/dev/null 2>&1
    echo "$out_dir/$name-$mode.png"
  done
done
