#!/usr/bin/env bash
# CI's wheel smoke job: the package as a user gets it, not as a checkout.  Builds the sdist and,
# from the sdist, the wheel; checks what the wheel holds; installs it (not editable) into a fresh
# virtual environment and runs the commands from a directory outside the repository: first with
# no extras (the scripted agents), then with the train and web extras added (shipped models and
# configs by name, training, serve, Gymnasium ids, SubprocVecEnv with spawn).
#
#   .ci/wheel_smoke.sh          needs python with the build package (the dev extra has it)
#
# Small on purpose (a few games, a 256-step training): CI runs it after the whole test suite.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python}"
work="$(mktemp -d)"
server=""
cleanup() {
    if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
unset PYTHONPATH  # nothing of the checkout may leak into the installed package's runs

step() { printf '\n== [%3d s] %s\n' "$SECONDS" "$*"; }
quiet() {  # run a command, showing its output only when it fails
    if ! "$@" >"$work/out.log" 2>&1; then
        cat "$work/out.log"
        echo "FAILED: $*" >&2
        return 1
    fi
}

needs_extra() {  # a command that needs an extra, without it: fails with one line naming the extra
    local extra="$1"
    shift
    if "$@" >"$work/out.log" 2>&1 || grep -q Traceback "$work/out.log" || ! grep -qF "pip install 'dice-envs[$extra]'" "$work/out.log"; then
        cat "$work/out.log"
        echo "FAILED: without the $extra extra, $* is not one line naming it" >&2
        return 1
    fi
}

step "build the sdist, then the wheel from it"
quiet "$python" -m build --sdist --wheel --outdir "$work/dist" "$repo"
wheel="$(echo "$work"/dist/*.whl)"
sdist="$(echo "$work"/dist/*.tar.gz)"
"$python" - "$wheel" "$sdist" <<'EOF'
"""The wheel holds the package and its data and nothing else at the top level; the sdist holds
what the test suite reads."""
import sys
import tarfile
import zipfile
from fnmatch import fnmatch

wheel = zipfile.ZipFile(sys.argv[1]).namelist()
must = ["dice_envs/py.typed", "dice_envs/models/*.zip", "dice_envs/models/*.json", "dice_envs/configs/*/*.yaml",
        "dice_envs/arena/ladders/*.json", "dice_envs/web/assets/*.html", "dice_envs/web/assets/*.js", "dice_envs/web/assets/*.css"]
missing = [pattern for pattern in must if not any(fnmatch(name, pattern) for name in wheel)]
tops = {name.split("/")[0] for name in wheel}
stray = sorted(top for top in tops if top != "dice_envs" and not top.endswith(".dist-info"))
models = {name[:-4] for name in wheel if fnmatch(name, "dice_envs/models/*.zip")}
uncarded = sorted(model for model in models if f"{model}.json" not in wheel)
root = tarfile.open(sys.argv[2]).getnames()[0].split("/")[0]
sdist = set(tarfile.open(sys.argv[2]).getnames())
for needed in ["tests/helpers.py", "tests/race_reference.py", "tests/golden", "tests/conformance", "docs/results.md",
               "docs/images", "tools/browser.py", "benchmarks/optimality.py", ".ci/run", "README.md", "LICENSE"]:
    if f"{root}/{needed}" not in sdist:
        missing.append(f"sdist: {needed}")
if missing or stray or uncarded:
    sys.exit(f"wheel/sdist contents: missing {missing}, stray top-level {stray}, models without a card {uncarded}")
print(f"wheel: {len(wheel)} files, top level {sorted(tops)}, {len(models)} models with cards; sdist: {len(sdist)} entries")
EOF

step "a fresh virtual environment, the wheel installed without extras"
"$python" -m venv "$work/venv"
export PATH="$work/venv/bin:$PATH"
quiet pip install "$wheel"
mkdir "$work/run" && cd "$work/run"  # outside the repository: only the installed package is importable

step "base install: scripted agents"
quiet dice-envs list
quiet dice-envs demo --games 2
quiet dice-envs match dino_hunt_v0 cup_counter random --games 20
quiet dice-envs evaluate dino_hunt_v0 random cup_counter --games 10 --out evaluation
quiet dice-envs tournament dalek_dice_v0 random protect_humans doctor_odds --games 4 --out tournament
quiet dice-envs replay dino_hunt_v0 cup_counter random --out base.html --log base.json
quiet python -c "import dice_envs, gymnasium; gymnasium.make('dice_envs/DinoHunt-v0', opponents={'random': 1.0}).reset(seed=0)"
python - <<'EOF'
"""Only dice_envs is installed: none of the old top-level packages, and no torch without the train extra."""
import importlib.util
import sys

present = [name for name in ("agents", "training", "web", "tests", "tools", "benchmarks", "torch") if importlib.util.find_spec(name)]
if present:
    sys.exit(f"importable in a base install, and must not be: {present}")
EOF
if python -c "import agents" 2>/dev/null; then echo "FAILED: import agents works" >&2; exit 1; fi
needs_extra train dice-envs match dino_hunt_v0 model:dino_hunt_ppo random --games 2
needs_extra train dice-envs train --config dino_hunt/ppo
needs_extra web timeout 60 dice-envs serve

step "the train and web extras added"
quiet pip install "$wheel[train,web]"

step "shipped model and config by name"
quiet dice-envs list
quiet dice-envs match dino_hunt_v0 model:dino_hunt_ppo cup_counter --games 20
quiet dice-envs train --config dino_hunt/ppo --run-dir run --no-progress total_timesteps=256 n_envs=2 \
    hyperparameters.n_steps=64 hyperparameters.batch_size=64 checkpoint_interval=256 \
    evaluation.interval=256 evaluation.games=2 evaluation.final_games=2 'evaluation.opponents=[random]'
quiet dice-envs match dino_hunt_v0 model:run/model.zip random --games 4

step "ladder, leaderboard, replays"
quiet dice-envs ladder dino_hunt_v0 random --games 2
quiet dice-envs ladder --leaderboard
quiet dice-envs replay dino_hunt_v0 model:dino_hunt_ppo cup_counter --out game.html --log game.json
quiet dice-envs replay --from-log game.json --out again.html

step "serve: one request"
port="$(python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
dice-envs serve --host 127.0.0.1 --port "$port" >"$work/serve.log" 2>&1 &
server=$!
if ! python - "$port" <<'EOF'
import sys
import time
import urllib.request

url = f"http://127.0.0.1:{sys.argv[1]}/"
for _ in range(600):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            page = response.read().decode()
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit(f"no answer from {url}")
if "<html" not in page.lower():
    sys.exit(f"{url} is not the page: {page[:200]!r}")
EOF
then
    cat "$work/serve.log"; exit 1
fi
kill "$server" && wait "$server" 2>/dev/null || true
server=""

step "Gymnasium ids after import dice_envs; SubprocVecEnv with spawn"
quiet python -c "import dice_envs, gymnasium; gymnasium.make('dice_envs/DinoHunt-v0', opponents={'random': 1.0})"
cat >subproc_check.py <<'EOF'
"""Gymnasium ids in SB3's SubprocVecEnv with spawn: each fresh process imports this script, and
with it dice_envs, which registers the ids."""
import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import SubprocVecEnv

import dice_envs  # noqa: F401  (registers the Gymnasium ids)


def make_env() -> gymnasium.Env:
    return gymnasium.make("dice_envs/DalekDice-v0", opponents={"random": 1.0})


if __name__ == "__main__":
    envs = SubprocVecEnv([make_env, make_env], start_method="spawn")
    envs.reset()
    for _ in range(20):
        masks = np.array(envs.env_method("action_masks"))
        envs.step(np.array([np.flatnonzero(mask)[0] for mask in masks]))
    envs.close()
EOF
quiet python subproc_check.py
if python -c "import agents" 2>/dev/null; then echo "FAILED: import agents works" >&2; exit 1; fi

step "wheel smoke job passed"
