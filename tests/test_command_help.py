"""Every management command answers ``--help``, in both languages: an organiser's first step
with a command they have not used is to ask it what it does."""

import pytest
from django.core.management import ManagementUtility, get_commands, load_command_class
from django.utils import translation

COMMANDS = sorted(get_commands())
OURS = sorted(name for name, app in get_commands().items() if app == "tournament")


def help_text(name: str, capsys) -> str:
    """What ``manage.py <name> --help`` prints: the command's parser drawing its help, as
    argparse does for ``--help`` (without ``execute()``, which would set Django up again and
    configure the logging a second time)."""
    ManagementUtility(["manage.py"]).fetch_command(name).print_help("manage.py", name)
    return capsys.readouterr().out


def test_the_projects_commands_are_all_checked():
    assert {"generate_tournament", "import_players", "setup_demo", "catalogue"} <= set(OURS)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_prints_its_help(name, language, capsys):
    with translation.override(language):
        text = help_text(name, capsys)
    assert f"manage.py {name}" in text
    assert "--help" in text


@pytest.mark.parametrize("name", OURS)
def test_the_projects_commands_say_what_they_do(name, capsys):
    """Beyond the usage line: the command's own description, as its ``help`` gives it."""
    command = load_command_class("tournament", name)
    assert str(command.help).strip(), f"{name} has no help text"
    first_words = " ".join(str(command.help).split()[:4])
    assert first_words in " ".join(help_text(name, capsys).split())
