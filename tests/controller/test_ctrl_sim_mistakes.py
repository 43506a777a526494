"""``pontoon-table sim --dealer-mistakes``: the bot table's dealer makes the
mistakes ``sim-hw``'s does, so the dealer page's hold screens can be seen.

A wrong mistake name is refused before anything starts, in one line that
names the known ones (the table itself is exercised in
``tests/browser/test_dealer_tablet.py``).
"""

from __future__ import annotations

import pytest

from controller.cli import main


def test_an_unknown_mistake_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--dealer-mistakes", "drop_the_pack=1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert "unknown dealer mistake 'drop_the_pack'" in err
    assert "draw_while_locked" in err  # the known ones are listed


def test_the_option_is_documented(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    assert "--dealer-mistakes" in capsys.readouterr().out
