"""The dealer's and the floor's access tokens, when the command line gives none.

Why not ``secrets.token_urlsafe``: its alphabet has ``-`` and ``_``, and one
token in 64 began with ``-``, which ``--token …`` on a command line reads as
another option (the floor's broker passwords met the same, see
``floor.broker_setup.new_password``).  Letters and digits survive every shell,
address bar, QR code and configuration file.
"""

from __future__ import annotations

import math
import secrets
import string

TOKEN_ALPHABET = string.ascii_letters + string.digits


def new_token(bits: int = 96) -> str:
    """A random token of letters and digits carrying at least ``bits`` bits."""
    length = math.ceil(bits / math.log2(len(TOKEN_ALPHABET)))
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(length))
