#!/usr/bin/env bash
# Mutation testing with mutmut 3: plants small bugs (mutants) in one module at a
# time, runs only that module's fast tests against each, and prints the share
# of mutants the tests kill.  Not part of CI (see docs/testing.md).
#
#   scripts/mutation.sh                  every module, firmware_bridge first
#   scripts/mutation.sh wire journal     only these (labels below)
#   scripts/mutation.sh rules            every batch of the rules package
#   MUTATION_JOBS=1 scripts/mutation.sh  one worker (default 2); MUTATION_NICE=19 idle priority
#   scripts/mutation.sh --per-module build/mutation/rules-money/all.txt   scores per module
#   scripts/mutation.sh --again rules-play [NAME...]   survivors (or NAMEs) again, with the tests as they are now
#
# Each module runs in its own copy of the work tree under build/mutation/<label>
# (mutmut writes its mutants/ folder and results there), so nothing in the
# work tree itself is touched.  Survivors: build/mutation/<label>/survivors.txt,
# and `cd build/mutation/<label> && mutmut show NAME` prints one's diff.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-$ROOT/.venv/bin/python}
JOBS=${MUTATION_JOBS:-2}
NICE=${MUTATION_NICE:-10}
# `timing` tests hold real time to tight bounds: on a machine busy with mutants they
# fail now and then whatever the code, and each such failure would count as a kill
FAST='not slow and not browser and not timing'

# label | files to mutate (globs, space separated) | tests (pytest arguments) | marker expression
# (the fourth field is optional: the fast tests by default)
# test_fb_serial.py (and tests/hardware_sim) are left out: they run real serial ports against the wall
# clock, and one flake while mutmut maps tests to code aborts the whole run
NO_SERIAL=--ignore=tests/firmware_bridge/test_fb_serial.py
# The rules package in batches of modules, each run on its own (about 3150 mutants
# in all); money and legality first.  Their tests: tests/rules, slow ones included,
# with the property tests cut to a few fixed examples by scripts/mutation_pytest.py
# (MUTATION_EXAMPLES, MUTATION_GAMES), tests/rules/test_scenario_files.py playing
# every scenario in-process (tests/test_scenarios.py runs them through a `replay`
# subprocess, which mutmut cannot map to the code it reaches), and the controller's
# journal and replay tests for the actions' JSON.  mutmut runs, for each mutant,
# only the selected tests that reach the mutated function, fastest first.
RULES_TESTS=tests/rules
# legal_actions-vs-apply (a few seconds per example) only where legality is mutated
NO_LEGAL=-k=not%legal_actions_are_exactly
MODULES=(
    "link|firmware_bridge/link.py|tests/firmware_bridge $NO_SERIAL"
    "device|firmware_bridge/device.py|tests/firmware_bridge $NO_SERIAL"
    "wire|firmware_bridge/wire.py|tests/firmware_bridge $NO_SERIAL"
    "host|firmware_bridge/host.py|tests/firmware_bridge $NO_SERIAL"
    "views|dealer_display/views.py|tests/dealer_display"
    "journal|controller/journal.py|tests/controller/test_ctrl_journal.py tests/controller/test_journal_edges.py tests/controller/test_journal_damage.py tests/controller/test_journal_spelling.py tests/controller/test_ctrl_core.py"
    "rules-money|controller/rules/settle.py controller/rules/outcomes.py controller/rules/money.py controller/rules/results.py|$RULES_TESTS $NO_LEGAL|not browser and not timing"
    "rules-legality|controller/rules/legality.py controller/rules/decide.py controller/rules/pending.py|$RULES_TESTS|not browser and not timing"
    "rules-play|controller/rules/play.py controller/rules/flow.py|$RULES_TESTS $NO_LEGAL|not browser and not timing"
    "rules-hands|controller/rules/hands.py controller/rules/cards.py controller/rules/pack.py|$RULES_TESTS $NO_LEGAL|not browser and not timing"
    "rules-state|controller/rules/state.py controller/rules/game.py controller/rules/views.py controller/rules/__init__.py|$RULES_TESTS $NO_LEGAL|not browser and not timing"
    "rules-actions|controller/rules/actions.py controller/rules/ruleset.py|$RULES_TESTS $NO_LEGAL tests/controller/test_ctrl_journal.py|not browser and not timing"
)

wanted=("$@")
summary=()

run_one() {
    local label=$1 files=$2 tests=$3 marks=${4:-$FAST}
    local work=$ROOT/build/mutation/$label
    local pkg=${files%%/*}
    rm -rf "$work"
    mkdir -p "$work"
    # a copy of the tree as it stands (tracked and new files, not ignored ones)
    git ls-files -z --cached --others --exclude-standard \
        | tar --null -T - -cf - 2>/dev/null | tar -xf - -C "$work"
    local existing=()
    for t in $tests; do
        # pytest options pass as they are; test paths only if they exist
        # (a % in an option stands for a space: -k=not%x)
        if [[ $t == -* ]]; then existing+=("${t//%/ }"); fi
        if [[ $t != -* ]] && [ -e "$work/$t" ]; then existing+=("$t"); fi
    done
    {
        echo "[mutmut]"
        # mutmut's own CPU-time limit stays at its default (30x the tests' time):
        # tighter, whole test runs of equivalent mutants were cut and counted as
        # killed; a mutant that hangs a test is stopped by pytest-timeout below
        # logging calls are not mutated: their wording is for people reading the
        # logs, and every decision the table depends on is an event or a counter
        echo "do_not_mutate_patterns ="
        echo "    ^\\s*log\\.(debug|info|warning|error|log|exception)\\("
        # mutmut copies source_paths into mutants/ and puts that first on sys.path
        echo "source_paths = $pkg/"
        echo "only_mutate ="
        for f in $files; do echo "    $f"; done
        echo "also_copy ="
        for other in controller firmware_bridge dealer_display hardware_sim vision examples docs benchmarks fuzz; do
            [ "$other" = "$pkg" ] || echo "    $other/"
        done
        echo "pytest_add_cli_args_test_selection ="
        for t in "${existing[@]}"; do echo "    $t"; done
        echo "pytest_add_cli_args ="
        echo "    -m"
        echo "    $marks"
        # small, fixed property tests (see scripts/mutation_pytest.py)
        echo "    -p"
        echo "    mutation_pytest"
        echo "    -p"
        echo "    no:cacheprovider"
        echo "    -q"
        # a loaded machine and mutmut's tracing make the slow rules tests take
        # a minute; one time-out while mutmut maps the tests ends the run
        echo "    --timeout=${MUTATION_TIMEOUT:-120}"
    } >"$work/setup.cfg"
    echo "== $label: mutating $files with ${existing[*]}"
    local start; start=$(date +%s)
    # tests that start a subprocess import the copy too; the folder must exist
    # before Python starts, or its import cache marks it as empty for good
    mkdir -p "$work/mutants"
    mutmut_in "$work" run.log
    report "$label" "$work" "$files" "$(( $(date +%s) - start ))"
}

# mutmut run [NAMES...] in a module's copy, then its results exported
mutmut_in() {
    local work=$1 log=$2
    shift 2
    (
        cd "$work"
        export PYTHONPATH=$work/mutants:$work/scripts
        export MUTATION_EXAMPLES=${MUTATION_EXAMPLES:-3} MUTATION_GAMES=${MUTATION_GAMES:-10}
        nice -n "$NICE" "$PY" -m mutmut run --max-children "$JOBS" "$@" >"$work/$log" 2>&1 || true
        "$PY" -m mutmut export-cicd-stats >/dev/null 2>&1 || true
        "$PY" -m mutmut results >"$work/survivors.txt" 2>&1 || true
        "$PY" -m mutmut results --all true >"$work/all.txt" 2>&1 || true
    )
}

# the score of a module's copy: one line, then one per module for a batch
report() {
    local label=$1 work=$2 files=$3 secs=$4
    local line
    line=$("$PY" - "$work/mutants/mutmut-cicd-stats.json" "$label" "$secs" <<'EOF'
import json, sys
path, label, secs = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    s = json.load(open(path))
except OSError:
    print(f"{label:8} no result (see build/mutation/{label}/run.log)")
    raise SystemExit
killed = s["killed"] + s.get("timeout", 0)
if killed + s["survived"] + s.get("no_tests", 0) == 0:
    print(f"{label:8} no result (see build/mutation/{label}/run.log)")
    raise SystemExit
# "no tests" mutants count as survivors: nothing would catch them
tested = s["total"] - s.get("skipped", 0)
score = 100 * killed / tested if tested else 0.0
print(
    f"{label:8} {score:5.1f} % killed  ({killed} of {tested}; survived {s['survived']},"
    f" no tests {s.get('no_tests', 0)}, timeout {s.get('timeout', 0)}, suspicious"
    f" {s.get('suspicious', 0)})  in {int(secs) // 60} min {int(secs) % 60} s"
)
EOF
    )
    echo "$line"
    summary+=("$line")
    # a batch of several files: the score of each module too
    if [ "$(wc -w <<<"$files")" -gt 1 ]; then
        while IFS= read -r line; do
            echo "$line"
            summary+=("$line")
        done < <(per_module "$work/all.txt")
    fi
}

# "  controller.rules.settle.x_bust__mutmut_3: killed" lines -> a score per module
# (also by hand: scripts/mutation.sh --per-module build/mutation/rules-money/all.txt)
per_module() {
    "$PY" - "$1" <<'EOF'
import collections, re, sys
counts = collections.defaultdict(collections.Counter)
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r"\s*([\w.]+)\.x\S*__mutmut_\d+: (.+)$", line)
    if m:
        counts[m.group(1)][m.group(2).strip()] += 1
for module, c in sorted(counts.items()):
    killed = c["killed"] + c["timeout"]
    tested = sum(c.values()) - c["skipped"] - c["not checked"]
    score = 100 * killed / tested if tested else 0.0
    unchecked = f", not checked {c['not checked']}" if c["not checked"] else ""
    print(
        f"  {module:32} {score:5.1f} % killed  ({killed} of {tested}; survived {c['survived']},"
        f" no tests {c['no tests']}{unchecked})"
    )
EOF
}

if [ "${1:-}" = --per-module ]; then
    per_module "$2"
    exit 0
fi

# --again LABEL [NAME...]: after tests were added, run the module's survivors
# (or the mutants NAMEd, fnmatch patterns) again in its copy, with the tests
# as they stand now in the tree.  mutmut maps the new tests to the code they
# reach before it runs.  The mutated code must not have changed since the run
# (the mutants were made from it): if it has, run the module afresh.
if [ "${1:-}" = --again ]; then
    label=${2:?"--again needs a label"}
    shift 2
    work=$ROOT/build/mutation/$label
    if [ ! -f "$work/survivors.txt" ]; then
        echo "no run of $label to go on from: run scripts/mutation.sh $label first" >&2
        exit 1
    fi
    files=
    for m in "${MODULES[@]}"; do
        IFS='|' read -r l f _ <<<"$m"
        [ "$l" = "$label" ] && files=$f
    done
    for f in $files; do
        if ! cmp -s "$ROOT/$f" "$work/$f"; then
            echo "$f has changed since the run of $label: run scripts/mutation.sh $label afresh" >&2
            exit 1
        fi
    done
    rm -rf "$work/tests" "$work/scripts"
    cp -a "$ROOT/tests" "$ROOT/scripts" "$work/"
    names=("$@")
    if [ ${#names[@]} -eq 0 ]; then
        mapfile -t names < <(sed -n 's/^ *\([^ ]*__mutmut_[0-9]*\): \(survived\|no tests\)$/\1/p' "$work/survivors.txt")
    fi
    if [ ${#names[@]} -eq 0 ]; then
        echo "$label: no survivors to run again"
    else
        echo "== $label: running ${#names[@]} mutants again"
        start=$(date +%s)
        mutmut_in "$work" again.log "${names[@]}"
        report "$label" "$work" "$files" "$(( $(date +%s) - start ))"
    fi
    exit 0
fi

for m in "${MODULES[@]}"; do
    IFS='|' read -r label files tests marks <<<"$m"
    # "rules" names every rules-* batch
    if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $label "* ]] \
        && [[ ! " ${wanted[*]} " == *" ${label%%-*} "* ]]; then
        continue
    fi
    run_one "$label" "$files" "$tests" "$marks"
done

echo
echo "mutation score per module"
printf '%s\n' "${summary[@]}"
