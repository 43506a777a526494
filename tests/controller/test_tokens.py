"""Generated access tokens: letters and digits only, never an option-like ``-``."""

from __future__ import annotations

import re

from controller.tokens import new_token


def test_a_token_is_letters_and_digits_of_the_asked_strength() -> None:
    # 62 symbols carry log2(62) = 5.954 bits each: 96 bits need 17 of them
    # (16 give 95.3), 128 bits need 22 (21 give 125.0): worked out by hand.
    tokens = [new_token() for _ in range(2000)]
    assert all(re.fullmatch(r"[A-Za-z0-9]{17}", t) for t in tokens)
    assert all(re.fullmatch(r"[A-Za-z0-9]{22}", new_token(128)) for _ in range(200))
    # token_urlsafe began with "-" once in 64: 2,000 of these would have shown ~31
    assert not any(t.startswith(("-", "_")) for t in tokens)
    assert len(set(tokens)) == len(tokens)
