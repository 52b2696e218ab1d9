"""The ``badacey`` command's frame: ``python -m badacey_fast``, subcommands imported on demand, one line
and status 2 for a bad setting or a missing extra, ``--json`` on eval and showdown, shell completion."""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess

import pytest

import badacey_fast
from badacey_fast import cli
from badacey_fast.cards import format_cards
from badacey_fast.cli import command
from badacey_fast.cli.command import COMMANDS, build_parser, main, summary
from badacey_fast.errors import MissingExtraError, SettingError
from badacey_fast.rules import reference
from badacey_fast.rules.games import SCORINGS, scoring

NAMES = [name for name, _, _ in COMMANDS]
HAND = "As 2h 3d 4c 5s"


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if a.dest == "command")
    return dict(action.choices)  # type: ignore[arg-type]


# ---- python -m badacey_fast ---------------------------------------------------------------------------

@pytest.mark.backend_independent
def test_python_m_badacey_fast_is_the_command(fresh_python, capsys):
    status, expected, _ = run(capsys, "eval", HAND)
    child = fresh_python("import runpy, sys; sys.argv = ['badacey_fast', 'eval', 'As 2h 3d 4c 5s'];"
                         "runpy.run_module('badacey_fast', run_name='__main__', alter_sys=True)")
    assert (child.returncode, child.stdout, child.stderr) == (status, expected, "")
    child = fresh_python("import runpy, sys; sys.argv = ['badacey_fast', 'eval', 'As 2h'];"
                         "runpy.run_module('badacey_fast', run_name='__main__', alter_sys=True)")
    assert child.returncode == 2 and child.stdout == "" and "badacey eval: error" in child.stderr


# ---- subcommands import only what they use --------------------------------------------------------------

_LOADED = """
import contextlib, io, sys
from badacey_fast.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    try:
        status = main({argv!r})
    except SystemExit as exc:
        status = exc.code
print(status, len(out.getvalue()))
print(" ".join(sorted(sys.modules)))
"""

# What a run that needs none of them must not load: numpy, and the package's numpy-heavy layers.
HEAVY = ("numpy", "badacey_fast.bulk", "badacey_fast.draw", "badacey_fast.game", "badacey_fast.files",
         "badacey_fast.solve", "badacey_fast.histories", "badacey_fast.cli.score", "badacey_fast.cli.game",
         "badacey_fast.cli.draw", "tqdm", "shtab")


@pytest.mark.backend_independent
@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["eval", HAND], ["showdown", HAND, "Kc Qd 9h 7s 6c"],
                                  ["eval", "--help"]])
def test_a_run_imports_only_what_it_uses(fresh_python, argv):
    child = fresh_python(_LOADED.format(argv=argv))
    assert child.returncode == 0, child.stderr
    status, printed = child.stdout.splitlines()[0].split()
    assert status in ("0", "None") and int(printed) > 0
    loaded = set(child.stdout.splitlines()[1].split())
    assert not [m for m in loaded if m.split(".")[0] == "numpy" or m.startswith(HEAVY)]
    if argv != ["--version"]:  # the installed metadata is read for --version alone
        assert "importlib.metadata" not in loaded
    if argv[0] != "showdown":  # pots (fractions, decimal) for a showdown alone
        assert "badacey_fast.pots" not in loaded and "decimal" not in loaded
        # What eval's start once paid for (docs/cli.md): typing (the reference's named tuples), shutil with
        # bz2 and lzma (argparse's terminal width), threading (the SIGTERM handler's main-thread test).
        # (--version may read the installed metadata with importlib.metadata, which loads them all.)
        if argv != ["--version"]:
            assert not loaded & {"typing", "shutil", "bz2", "lzma", "threading"}, sorted(loaded)


def test_help_lists_every_command_without_importing_it(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    for name, _, text in COMMANDS:
        assert name in out
        assert " ".join(text.split()[:3]) in " ".join(out.split())


def test_the_full_parser_registers_every_command_with_its_summary():
    found = build_parser(full=True)
    subs = _subcommands(found)
    assert list(subs) == NAMES
    def listed(parser: argparse.ArgumentParser) -> dict[str, str | None]:
        return {a.dest: a.help for a in next(a for a in parser._actions if a.dest == "command")._choices_actions}

    # One summary per command, the same whether its module was imported or not
    assert listed(found) == listed(build_parser(full=False)) == {name: summary(name) for name in NAMES}
    assert build_parser() is not found and list(_subcommands(build_parser())) == NAMES


def test_the_lazy_parser_has_the_real_options_of_the_command_it_runs():
    lazy = _subcommands(build_parser(full=False, command="showdown"))
    assert list(lazy) == NAMES
    full = _subcommands(build_parser(full=True))
    for name in ("eval", "showdown", "demo"):  # the module of showdown registers all three
        assert [a.option_strings for a in lazy[name]._actions] == [a.option_strings for a in full[name]._actions]
    assert lazy["draw"]._actions == []  # a placeholder: no options, not even --help


@pytest.mark.parametrize("name", NAMES)
def test_each_command_is_registered_by_the_module_the_table_names(name):
    lazy = _subcommands(build_parser(full=False, command=name))[name]
    assert [a.option_strings for a in lazy._actions] == \
        [a.option_strings for a in _subcommands(build_parser(full=True))[name]._actions]
    assert lazy._actions and lazy._actions[0].option_strings == ["-h", "--help"]  # its own parser, not a placeholder


@pytest.mark.parametrize("argv, expected", [(["eval", HAND], "eval"), (["--version"], None), ([], None),
                                            (["-h", "score", "x"], "score"), (["--", "draw"], "draw")])
def test_the_command_is_the_first_word_that_is_not_an_option(argv, expected):
    assert command._command_named(argv) == expected


@pytest.mark.parametrize("game", ["badugi", "a5", "2-7"])
def test_demo_refuses_a_game_the_seeds_hands_do_not_split_before_any_output(capsys, game):
    status, out, err = run(capsys, "demo", "--game", game)
    assert (status, out) == (2, "") and err.count("\n") == 1 and "badacey or badeucy" in err and game in err


def test_an_unknown_command_is_refused_with_every_name(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["evl", HAND])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "invalid choice: 'evl'" in err and "build-tables" in err


# ---- a missing extra, a bad setting: one line, status 2 ---------------------------------------------------

def test_a_missing_extra_is_one_line_and_status_2(capsys):
    def needs_an_extra(args: argparse.Namespace) -> int:
        MissingExtraError.require("no_such_module_here", "plot", "plots")
        return 0

    status = command._run(argparse.Namespace(command="draw", handler=needs_an_extra))
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err == 'badacey draw: error: plots need no_such_module_here: pip install "badacey_fast[plot]"\n'


@pytest.mark.parametrize("module, extra", [("pyarrow", "parquet"), ("distributed", "dask"), ("matplotlib", "plot")])
def test_an_optional_library_imported_without_a_hint_is_still_one_line_naming_the_extra(capsys, monkeypatch,
                                                                                        module, extra):
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, module, None)  # as if not installed

    def imports_it(args: argparse.Namespace) -> int:
        importlib.import_module(module)
        return 0

    status = command._run(argparse.Namespace(command="score", handler=imports_it))
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err == f'badacey score: error: this needs {module}: pip install "badacey_fast[{extra}]"\n'

    def imports_a_missing_part_of_the_package(args: argparse.Namespace) -> int:
        importlib.import_module("badacey_fast.no_such_module")
        return 0

    with pytest.raises(ModuleNotFoundError):  # a broken install is not an extra to install
        command._run(argparse.Namespace(command="score", handler=imports_a_missing_part_of_the_package))


@pytest.mark.backend_independent
def test_each_optional_library_is_named_with_the_extra_that_installs_it():
    import sys
    from pathlib import Path

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    extras = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    distribution = {"pyspiel": "open_spiel", "distributed": "dask[distributed]"}
    for module, extra in command.EXTRA_OF.items():
        wanted = distribution.get(module, module)
        assert any(req.split(";")[0].replace(" ", "").startswith(wanted) for req in extras[extra]), (module, extra)


@pytest.mark.backend_independent
@pytest.mark.parametrize("blocked, module, extra", [("gymnasium", "gymnasium", "rl"), ("pettingzoo", "pettingzoo", "rl"),
                                                    ("gymnasium", "pettingzoo", "rl"),
                                                    ("pyspiel", "openspiel", "openspiel")])
def test_an_environment_without_its_library_names_the_extra(fresh_python, blocked, module, extra):
    child = fresh_python(f"import sys; sys.modules[{blocked!r}] = None\n"
                         f"from badacey_fast.errors import MissingExtraError\n"
                         f"try:\n    import badacey_fast.envs.{module}\n"
                         f"except MissingExtraError as exc:\n    print(exc.extra, exc)\n")
    assert child.returncode == 0, child.stderr
    assert child.stdout.split()[0] == extra
    assert f'need {blocked}: pip install "badacey_fast[{extra}]"' in child.stdout


_BAD_SETTINGS = [("BADACEY_FAST_ISA", "avx513", "auto, avx512, avx2, scalar"),
                 ("BADACEY_FAST_ISA", "avx2 please", "auto, avx512, avx2, scalar"),
                 ("BADACEY_FAST_BACKEND", "cee", "auto, c, python"),
                 ("BADACEY_FAST_VERIFY_TABLES", "never", "once, always")]


@pytest.mark.backend_independent
@pytest.mark.parametrize("variable, value, valid", _BAD_SETTINGS)
def test_a_bad_setting_is_a_value_error_naming_it_when_the_package_loads(fresh_python, variable, value, valid):
    env = {"BADACEY_FAST_BACKEND": "c", variable: value}
    child = fresh_python("try:\n    import badacey_fast\nexcept ValueError as exc:\n"
                         "    from badacey_fast.errors import SettingError\n"
                         "    print(isinstance(exc, SettingError), exc)\n", env=env)
    assert child.returncode == 0, child.stderr
    assert child.stdout.startswith("True ") and value in child.stdout and valid in child.stdout


@pytest.mark.backend_independent
@pytest.mark.parametrize("variable, value, valid", _BAD_SETTINGS)
@pytest.mark.parametrize("argv", [["eval", HAND], ["showdown", HAND, "fold"], ["--version"]])
def test_a_bad_setting_stops_the_command_before_any_output(fresh_python, variable, value, valid, argv):
    env = {"BADACEY_FAST_BACKEND": "c", variable: value}
    code = f"import runpy, sys; sys.argv = ['badacey_fast', *{argv!r}]; " \
           "sys.orig_argv = [sys.executable, '-m', 'badacey_fast', *sys.argv[1:]]; " \
           "runpy.run_module('badacey_fast', run_name='__main__', alter_sys=True)"
    child = fresh_python(code, env=env)
    assert child.returncode == 2 and child.stdout == ""
    assert child.stderr.count("\n") == 1 and "Traceback" not in child.stderr
    assert child.stderr.startswith("badacey: error: ") and value in child.stderr and valid in child.stderr


@pytest.mark.backend_independent
def test_the_kernel_refuses_a_code_path_before_loading_a_table(fresh_python):
    env = {"BADACEY_FAST_BACKEND": "c", "BADACEY_FAST_ISA": "avx513"}
    child = fresh_python("import sys\ntry:\n    import badacey_fast\nexcept ValueError:\n    pass\n"
                         "print('badacey_fast.kernel._c' in sys.modules)", env=env)
    assert child.stdout.strip() == "False", child.stderr  # the C twin never served a call
    assert issubclass(SettingError, ValueError)


# ---- --json -------------------------------------------------------------------------------------------

def _random_hands(rng: random.Random, seats: int, size: int = 5) -> list[str]:
    deck = rng.sample(range(52), seats * size)
    return [format_cards(deck[i * size:(i + 1) * size]) for i in range(seats)]


@pytest.mark.parametrize("game", list(SCORINGS))
def test_eval_json_is_the_librarys_answer(capsys, game):
    rng = random.Random(f"eval-json-{game}")
    rules = scoring(game)
    for _ in range(40):
        (hand,) = _random_hands(rng, 1, rules.hand_size)
        status, out, err = run(capsys, "eval", hand, "--game", game, "--json")
        assert status == 0 and err == ""
        doc = json.loads(out)
        assert set(doc) == {"game", "cards", "low", "badugi"}
        assert doc["game"] == rules.game and doc["cards"] == format_cards(hand)
        cards = tuple(badacey_fast.parse_cards(hand))
        if "low" in rules.halves:
            rank = badacey_fast.low_rank(cards, game=rules)
            assert doc["low"] == {"rank": rank, "of": reference.LOW_CLASS_COUNTS[rules.family],
                                  "words": reference.describe_low_rank(rank, rules)}
        else:
            assert doc["low"] is None
        if "badugi" in rules.halves:
            rank = badacey_fast.badugi_rank(cards, ace_high=rules.ace_high)
            assert doc["badugi"] == {"rank": rank, "of": reference.BADUGI_CLASS_COUNT,
                                     "words": reference.describe_badugi_rank(rank, rules.ace_high)}
        else:
            assert doc["badugi"] is None


@pytest.mark.parametrize("game", ["badacey", "badeucy", "27"])
def test_showdown_json_is_the_librarys_answer(capsys, game):
    rng = random.Random(f"showdown-json-{game}")
    for _ in range(25):
        seats = rng.randint(2, 6)
        hands: list[str | None] = list(_random_hands(rng, seats))
        for s in rng.sample(range(seats), rng.randint(0, seats - 2)):
            hands[s] = None
        pot, button = rng.randint(0, 999), rng.randrange(seats)
        argv = [h or "fold" for h in hands]
        status, out, err = run(capsys, "showdown", *argv, "--pot", str(pot), "--button", str(button),
                               "--game", game, "--json")
        assert status == 0 and err == ""
        doc = json.loads(out)
        result = badacey_fast.showdown_detail(hands, pot, button=button, game=game)
        assert doc["payouts"] == [c or 0 for c in result.payouts]
        assert all(type(c) is int for c in doc["payouts"]) and sum(doc["payouts"]) == pot
        (main_pot,) = doc["pots"]
        assert main_pot["low_winners"] == list(result.low_winners)
        assert main_pot["badugi_winners"] == list(result.badugi_winners)
        assert main_pot["chips"] == list(result.pot.chips) and main_pot["amount"] == pot
        for s, seat in enumerate(doc["seats"]):
            assert seat["status"] == ("folded" if hands[s] is None else "shown")
            assert seat["cards"] == hands[s]
            words = result.descriptions[s]
            assert seat["low"] == (None if words is None or words.low is None else
                                   {"rank": result.low_ranks[s], "words": words.low})
            assert seat["badugi"] == (None if words is None or words.badugi is None else
                                      {"rank": result.badugi_ranks[s], "words": words.badugi})


def test_showdown_json_with_side_pots_and_names(capsys):
    hands = ["As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c", "Ks Qd 9c 5h 5s"]
    status, out, _ = run(capsys, "showdown", *hands, "--contributions", "10,50,50", "--names", "Ann,Ben,Cy",
                         "--json")
    doc = json.loads(out)
    result = badacey_fast.settle([10, 50, 50], hands)
    assert status == 0 and doc["contributions"] == [10, 50, 50]
    assert doc["payouts"] == result.payouts and [s["name"] for s in doc["seats"]] == ["Ann", "Ben", "Cy"]
    assert [(p["amount"], p["low_winners"], p["badugi_winners"]) for p in doc["pots"]] == \
        [(p.amount, list(p.low_winners), list(p.badugi_winners)) for p in result.pots]
    status, out, err = run(capsys, "showdown", *hands, "--names", "Ann,Ben", "--json")
    assert status == 2 and out == "" and "name" in err  # checked before anything is printed


def test_eval_words_from_the_cards_are_the_words_of_the_rank():
    # describe_low/_badugi (from the cards, what eval prints) against the words of the rank
    rng = random.Random(7)
    for game in ("badacey", "badeucy"):
        rules = scoring(game)
        for hand in reference.low_class_hands(game):
            assert reference.describe_low(hand, game) == reference.describe_low_rank(reference.low_rank(hand, game), game)
        for _ in range(300):
            cards = tuple(rng.sample(range(52), rng.randint(1, 5)))
            rank = reference.badugi_rank(cards, rules.ace_high)
            assert reference.describe_badugi(cards, rules.ace_high) == \
                reference.describe_badugi_rank(rank, rules.ace_high)


@pytest.mark.parametrize("game", ["badacey", "badeucy", "badugi", "27"])
def test_showdown_words_are_the_words_of_each_seats_ranks(game):
    rng = random.Random(f"words-{game}")
    rules = scoring(game)
    for _ in range(60):
        seats = rng.randint(2, 6)
        hands = _random_hands(rng, seats, rules.hand_size)
        result = badacey_fast.showdown_detail(hands, 10, game=game)
        for s, words in enumerate(result.descriptions):
            low, badugi = result.low_ranks[s], result.badugi_ranks[s]
            assert words == (None if low is None else reference.describe_low_rank(low, rules),
                             None if badugi is None else reference.describe_badugi_rank(badugi, rules.ace_high))


# ---- completion ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_prints_a_script_naming_every_command(capsys, shell):
    status, out, err = run(capsys, "completion", shell)
    assert status == 0 and err == ""
    for name in NAMES:
        assert name in out
    assert "--game" in out and "--json" in out  # the subcommands' own options, from the full parser
    if shell == "bash":
        assert "complete " in out
        if shutil.which("bash"):
            check = subprocess.run(["bash", "-n"], input=out, text=True, capture_output=True)
            assert check.returncode == 0, check.stderr
            sourced = subprocess.run(["bash", "-c", "source /dev/stdin && complete -p badacey"], input=out,
                                     text=True, capture_output=True)
            assert sourced.returncode == 0 and "badacey" in sourced.stdout, sourced.stderr
    else:
        assert out.startswith("#compdef badacey")


@pytest.mark.backend_independent
def test_completion_needs_no_optional_extra(fresh_python, capsys):
    expected = run(capsys, "completion", "bash")[1]
    child = fresh_python("import sys\n"
                         "for m in ('pyarrow', 'pandas', 'dask', 'distributed', 'matplotlib', 'gymnasium', "
                         "'pettingzoo', 'pyspiel'):\n    sys.modules[m] = None\n"
                         "from badacey_fast.cli import main\nsys.exit(main(['completion', 'bash']))\n")
    assert (child.returncode, child.stderr) == (0, "") and child.stdout == expected and expected.endswith("\n")


def test_completion_takes_bash_or_zsh_only(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["completion", "fish"])
    assert exc.value.code == 2 and "invalid choice: 'fish'" in capsys.readouterr().err


# ---- the package's names -----------------------------------------------------------------------------------

@pytest.mark.backend_independent
def test_dir_lists_the_api_and_not_the_modules_helpers():
    names = dir(badacey_fast)
    assert "annotations" not in names and "TYPE_CHECKING" not in names
    assert set(badacey_fast.__all__) <= set(names)
    assert cli.main is not None


@pytest.mark.backend_independent
@pytest.mark.parametrize("columns", ["44", "120", "", "wide"])
def test_help_is_laid_out_as_argparse_lays_it_out(monkeypatch, columns):
    """The command's help formatter finds the terminal's width without shutil: the same width, the same text."""
    monkeypatch.setenv("COLUMNS", columns)
    for parser in (build_parser(full=False), _subcommands(build_parser(full=False, command="showdown"))["showdown"]):
        ours = parser.format_help()
        parser.formatter_class = argparse.HelpFormatter
        assert ours == parser.format_help()


@pytest.mark.backend_independent
def test_a_run_that_names_its_command_first_builds_no_placeholders():
    lazy = _subcommands(build_parser(full=False, command="eval", listing=False))
    assert list(lazy) == ["eval", "showdown", "demo"]  # the module of eval registers these three
    assert list(_subcommands(build_parser(full=False, command="eval"))) == NAMES


@pytest.mark.parametrize("argv", [["-h", "eval"], ["--help"], ["--he"], ["evl", HAND]])
def test_the_command_list_is_complete_wherever_it_is_printed(capsys, argv):
    with pytest.raises(SystemExit):
        main(argv)
    printed = " ".join(capsys.readouterr()[0 if argv[0].startswith("-") else 1].split())
    for name in NAMES:
        assert name in printed
