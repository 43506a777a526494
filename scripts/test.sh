#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs them all.
# Debian packages: Chromium (browser tests), gnome-cards-data (real deck designs
# for the vision tests), kdegames-card-data-kf5 (KDE's decks: the simulator's
# kde:<design> decks are tested; never read by the vision tests), librsvg2-bin
# (renders those SVG designs) and systemd
# (systemd-analyze verifies the units `pontoon-table setup` writes), mosquitto
# (the floor tests run a real MQTT broker; openssl makes their certificates) and
# postgresql (the floor's PostgreSQL store is tested against a real server the
# tests start), and fonts-levien-museum and fonts-levien-typoscript (fonts the
# font-deck tests need the benchmarks to refuse).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -d /usr/share/aisleriot/cards ] || missing+=(gnome-cards-data)
[ -d /usr/share/carddecks ] || missing+=(kdegames-card-data-kf5)
command -v rsvg-convert >/dev/null || missing+=(librsvg2-bin)
command -v systemd-analyze >/dev/null || missing+=(systemd)
[ -x /usr/sbin/mosquitto ] || missing+=(mosquitto)
command -v openssl >/dev/null || missing+=(openssl)
[ -x /usr/lib/postgresql/15/bin/postgres ] || missing+=(postgresql)
# two faces that cannot draw every index label: the font-deck tests check
# that the benchmarks refuse them (tests/hardware_sim/test_cards_fontdeck.py)
{ command -v fc-list >/dev/null && fc-list -q ":family=Museum"; } || missing+=(fonts-levien-museum)
{ command -v fc-list >/dev/null && fc-list -q ":family=TypoScript"; } || missing+=(fonts-levien-typoscript)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "missing Debian packages (run as root to install): ${missing[*]}" >&2
    fi
fi

# MicroPython 1.27 compiled to WebAssembly (npm), to run the reference
# firmware under the real interpreter; needs Node.js (Debian: nodejs, npm).
command -v node >/dev/null && command -v npm >/dev/null || {
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
    else
        echo "missing Node.js (run as root to install: nodejs npm)" >&2
    fi
}
mpy=@micropython/micropython-webassembly-pyscript
if [ ! -f ".cache/mpy/node_modules/$mpy/micropython.mjs" ] && command -v npm >/dev/null; then
    npm install --silent --no-audit --no-fund --prefix .cache/mpy "$mpy@1.27.0"
fi

# axe-core (npm), injected into the pages by the accessibility browser tests.
if [ ! -f .cache/axe/node_modules/axe-core/axe.min.js ] && command -v npm >/dev/null; then
    npm install --silent --no-audit --no-fund --prefix .cache/axe "axe-core@4"
fi

# Card art from npm (hardware_sim/cards/npmdeck.py, pinned as in its Package
# entries): tests/hardware_sim/test_npmdeck.py draws npm:<design> decks from it
# (never read by the vision tests: cardsJS is the npm held-out group).
npm_cards=(cardsJS@1.1.1 svg-cards@4.0.2 @heruka_urgyen/react-playing-cards@0.5.0
           @younestouati/playing-cards-standard-deck@3.0.0 deck-of-cards@0.1.8)
if command -v npm >/dev/null; then
    for spec in "${npm_cards[@]}"; do
        meta=".cache/cards/node_modules/${spec%@*}/package.json"
        if ! grep -q "\"version\": *\"${spec##*@}\"" "$meta" 2>/dev/null; then
            npm install --silent --no-audit --no-fund --prefix .cache/cards "${npm_cards[@]}"
            break
        fi
    done
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -e '.[test]'

# Bitmap card decks from a PyPI wheel (arcade 3.3.3: Kenney's cards) and a
# Debian package (pokerth-data 1.1.2-2: PokerTH's decks), pinned by version and
# sha256 in hardware_sim/cards/bitmapdeck.py: downloaded by pip / apt-get
# download, checked, and only their card folders unpacked into .cache/cards
# (nothing is installed).  tests/hardware_sim/test_bitmapdeck.py draws
# deb:pokerth-800x480 from it (never read by the vision tests: the others are
# the bitmap held-out group).
.venv/bin/python -m hardware_sim.cards.bitmapdeck install --prefix .cache/cards

.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/lint-imports  # the layers: contracts in pyproject.toml
# The tests, in two passes (docs/testing.md, "Parallel runs"): first all but
# the `timing` tests on pytest-xdist workers (most tests wait on ptys,
# subprocesses and Chromium, so two workers on two cores nearly halve the
# time); then the `timing` tests, which hold real time to tight bounds, alone
# in one process. PYTEST_WORKERS sets the number of workers (0: no xdist).
# Bytecode is cached even where PYTHONDONTWRITEBYTECODE is set: every worker
# and every simulator subprocess would otherwise compile its imports anew.
unset PYTHONDONTWRITEBYTECODE
workers=${PYTEST_WORKERS:-2}
if [ "$workers" = 0 ]; then parallel=(); else parallel=(-n "$workers" --dist loadgroup); fi
rc=0
.venv/bin/python -m pytest "${parallel[@]}" --timing=skip --durations=25 "$@" || rc=$?
timing_rc=0
.venv/bin/python -m pytest --timing=only --durations=10 "$@" || timing_rc=$?
# exit 5 is "no tests collected": fine for one pass (e.g. a path with no timing
# tests), not for both
if [ $rc = 5 ] && [ $timing_rc = 5 ]; then exit 5; fi
[ $rc = 5 ] && rc=0
[ $timing_rc = 5 ] && timing_rc=0
echo "parallel pass: exit $rc; timing pass: exit $timing_rc"
[ $rc = 0 ] && [ $timing_rc = 0 ]
