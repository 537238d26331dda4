"""The workflow tests' interpreter of script jobs runs a script as a fresh one does.

``tests/snakerun.py`` gives the tests' Snakemake runs a ``python`` that hands
``python SCRIPT.py`` to a server with the model libraries imported
(``fixtures.command_server``). A script must see its own directory, environment,
arguments and streams, and end with the status and output the real interpreter gives.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from fixtures.command_server import CommandServer

SCRIPTS = {
    "prints": (
        "import os, sys\n"
        "print('out', os.getcwd() == os.environ['EXPECTED_CWD'], __name__, sys.argv[1:])\n"
        "print('err', file=sys.stderr)\n"
    ),
    "raises": "raise ValueError('bad input')\n",
    "exits": "import sys\nprint('leaving')\nsys.exit(3)\n",
    "imports beside itself": "import sibling\nprint(sibling.VALUE)\n",
    "forgets an import": "print(json.dumps([1]))\n",  # the server has imported json
    "sees its own path": "import sys\nprint(sys.path[0] == __import__('os').getcwd())\n",
    "imports no test fixture": "import tiny_models\n",  # beside the server's own script
}


@pytest.fixture(scope="module")
def python(tmp_path_factory):
    with CommandServer(os.environ, preload=("json",)) as server:
        yield str(server.write_python_client(tmp_path_factory.mktemp("job-python") / "python"))


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_script_runs_as_in_a_fresh_interpreter(python, tmp_path, name):
    (tmp_path / "job.py").write_text(SCRIPTS[name])
    (tmp_path / "sibling.py").write_text("VALUE = 7\n")
    env = {**os.environ, "EXPECTED_CWD": str(tmp_path)}
    ran = {
        interpreter: subprocess.run(
            [interpreter, str(tmp_path / "job.py")],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        for interpreter in (sys.executable, python)
    }
    real, served = ran[sys.executable], ran[python]
    assert (served.returncode, served.stdout) == (real.returncode, real.stdout), name
    # a traceback's last line (its frames differ: the server's runner is on the stack)
    assert served.stderr.splitlines()[-1:] == real.stderr.splitlines()[-1:], served.stderr
    failing = {"raises": 1, "exits": 3, "forgets an import": 1, "imports no test fixture": 1}
    assert real.returncode == failing.get(name, 0)


def test_every_other_call_runs_the_real_interpreter(python):
    ran = subprocess.run(
        [python, "-c", "import sys; print(sys.executable, sys.argv[1:])", "a"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == [sys.executable, "['a']"]
