"""Everything a Mosquitto broker for an event needs, written in one go.

``pontoon-table floor init-broker --tables N`` calls :func:`write_broker`: a
``mosquitto.conf`` (persistence on, a TLS listener, optionally a plain one on
localhost for tests and the simulator), a password file, an ACL, a small CA
with the broker's certificate, and one ``[floor]`` snippet per table for its
``table.toml`` plus the floor's own credentials.

Why each table has its own account: the ACL then lets table K publish only
under ``pontoon/v1/tables/table-K/`` and read only its own resend topic, so a
stolen or mis-copied table file cannot write another table's journal; the
floor account may only read journals and statuses and write resend requests.

The password file is written here, not by ``mosquitto_passwd``: Mosquitto 2's
format is ``user:$7$<iterations>$<salt, base64>$<PBKDF2-HMAC-SHA512, base64>``
(the tests log in with it against the real broker).  The certificates are made
with the ``openssl`` command line (every Linux has it; no new Python
dependency): elliptic-curve P-256 keys, a CA valid 10 years, the server
certificate 2 years, with the host name and ``localhost``/127.0.0.1 as
subject alternative names.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
import string
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from floor.messages import JOURNAL, RESEND, ROOT, STATUS, TABLE_ID

FLOOR_USER = "floor"
PBKDF2_ITERATIONS = 101  # Mosquitto 2.0's own default for ``$7$`` hashes
TLS_PORT = 8883


class SetupError(RuntimeError):
    """The broker files cannot be written; the text says why."""


@dataclass(frozen=True)
class Account:
    user: str
    password: str


@dataclass(frozen=True)
class BrokerFiles:
    """What :func:`write_broker` wrote, and the accounts in it."""

    out: Path
    conf: Path
    passwd: Path
    acl: Path
    ca: Path
    cert: Path
    key: Path
    host: str
    tls_port: int
    plain_port: int | None
    floor: Account
    tables: dict[str, Account]  # table id -> its account

    def url(self, *, tls: bool = True) -> str:
        """The broker's URL for a client on this machine (tests) or the floor."""
        if tls:
            return f"mqtts://{self.host}:{self.tls_port}"
        if self.plain_port is None:
            raise SetupError("this broker has no plain listener")
        return f"mqtt://127.0.0.1:{self.plain_port}"


def table_ids(count: int) -> list[str]:
    if not 1 <= count <= 999:
        raise SetupError(f"--tables must be 1-999 (got {count})")
    return [f"table-{k}" for k in range(1, count + 1)]


PASSWORD_ALPHABET = string.ascii_letters + string.digits
PASSWORD_LENGTH = 24  # 24 of 62 symbols: about 143 bits


def new_password() -> str:
    """A random password of letters and digits only.

    Why not ``token_urlsafe``: its alphabet has ``-`` and ``_``, and one
    password in 64 began with ``-``, which a command line such as
    ``floor serve --password …`` reads as another option; letters and digits
    survive every shell, TOML string and form a steward pastes them into.
    """
    return "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_LENGTH))


def password_line(user: str, password: str, *, salt: bytes | None = None) -> str:
    """One line of a Mosquitto 2 password file (PBKDF2-SHA512, ``$7$``)."""
    if ":" in user or "\n" in user or "\n" in password:
        raise SetupError(f"user name {user!r} cannot be written to a password file")
    salt = secrets.token_bytes(12) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, PBKDF2_ITERATIONS)
    b64 = base64.b64encode
    return f"{user}:$7${PBKDF2_ITERATIONS}${b64(salt).decode()}${b64(digest).decode()}"


def acl_text(tables: Sequence[str], floor_user: str = FLOOR_USER) -> str:
    """The ACL: each table writes only its own topics; the floor reads and asks resends."""
    lines = [
        "# Written by pontoon-table floor init-broker: one block per account.",
        "# A table writes only its own journal and status and reads its own resend",
        "# requests; the floor reads every journal and status and writes resend requests.",
        "",
        f"user {floor_user}",
        f"topic read {ROOT}/+/{JOURNAL}",
        f"topic read {ROOT}/+/{STATUS}",
        f"topic write {ROOT}/+/{RESEND}",
    ]
    for table in tables:
        if not TABLE_ID.match(table) or table == floor_user:
            raise SetupError(f"table id {table!r} is not lower-case letters, digits and '-'")
        lines += [
            "",
            f"user {table}",
            f"topic write {ROOT}/{table}/{JOURNAL}",
            f"topic write {ROOT}/{table}/{STATUS}",
            f"topic read {ROOT}/{table}/{RESEND}",
        ]
    return "\n".join(lines) + "\n"


def mosquitto_conf(
    out: Path, *, tls_port: int, plain_port: int | None, bind: str = "", user: str | None = None
) -> str:
    """``mosquitto.conf`` for files in ``out`` (absolute paths: run it from anywhere).

    Persistence keeps queued QoS 1 messages and persistent sessions across a
    broker restart (saved every 10 s and on a clean stop); a hard crash can lose
    the last seconds, which the floor's resend requests recover.  ``user``: the
    account a broker started as root runs as (Debian's service: ``mosquitto``,
    which must be able to read these files); the simulator passes its own.
    """
    data = out / "data"
    lines = [
        "# Written by pontoon-table floor init-broker (Mosquitto 2.0 or later).",
        *([f"user {user}"] if user else []),
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {out / 'passwd'}",
        f"acl_file {out / 'acl'}",
        "persistence true",
        f"persistence_location {data}/",
        "autosave_interval 10",
        "# a floor that is away keeps its queue: a long event, many tables",
        "max_queued_messages 1000000",
        "max_inflight_messages 100",
        "max_packet_size 65536",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "",
        f"listener {tls_port} {bind}".rstrip(),
        f"cafile {out / 'ca.pem'}",
        f"certfile {out / 'server.pem'}",
        f"keyfile {out / 'server.key'}",
        "tls_version tlsv1.2",
    ]
    if plain_port is not None:
        lines += [
            "",
            "# plain MQTT on this machine only (the simulator and the tests)",
            f"listener {plain_port} 127.0.0.1",
        ]
    return "\n".join(lines) + "\n"


def floor_snippet(table: str, account: Account, host: str, port: int) -> str:
    """The ``[floor]`` section of one table's ``table.toml``."""
    return (
        "[floor]\n"
        f'broker = "mqtts://{host}:{port}"\n'
        f'table_id = "{table}"\n'
        f'username = "{account.user}"\n'
        f'password = "{account.password}"\n'
        'ca = "floor-ca.pem"               # a copy of the event\'s ca.pem, next to table.toml\n'
    )


def _openssl(*args: str, cwd: Path) -> None:
    try:
        done = subprocess.run(
            ["openssl", *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=False
        )
    except FileNotFoundError:
        raise SetupError("the openssl command is needed to make the certificates") from None
    if done.returncode != 0:
        raise SetupError(f"openssl {args[0]} failed: {done.stderr.strip()}")


def make_certificates(out: Path, host: str, *, name: str = "ca") -> tuple[Path, Path, Path]:
    """A CA (``<name>.pem``) and the broker's certificate and key, signed by it."""
    ca_key, ca = out / f"{name}.key", out / f"{name}.pem"
    key, csr, cert = out / "server.key", out / "server.csr", out / "server.pem"
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    _openssl("req", "-x509", *ec, "-keyout", str(ca_key), "-out", str(ca), "-days", "3650",
             "-subj", f"/CN=pontoon event CA {secrets.token_hex(4)}", cwd=out)  # fmt: skip
    _openssl("req", *ec, "-keyout", str(key), "-out", str(csr), "-subj", f"/CN={host}", cwd=out)
    names = {f"DNS:{host}", "DNS:localhost", "IP:127.0.0.1"}
    if all(part.isdigit() for part in host.split(".")):
        names.add(f"IP:{host}")
    with tempfile.NamedTemporaryFile("w", suffix=".ext", dir=out, delete=False) as ext:
        ext.write(f"subjectAltName={','.join(sorted(names))}\n")
        ext.write("extendedKeyUsage=serverAuth\n")
    try:
        _openssl("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key),
                 "-CAcreateserial", "-out", str(cert), "-days", "730", "-extfile", ext.name,
                 cwd=out)  # fmt: skip
    finally:
        os.unlink(ext.name)
        csr.unlink(missing_ok=True)
    for secret in (ca_key, key):
        secret.chmod(0o600)
    return ca, cert, key


def write_broker(
    out: str | Path,
    tables: Sequence[str],
    *,
    host: str = "localhost",
    tls_port: int = TLS_PORT,
    plain_port: int | None = None,
    bind: str = "",
    user: str | None = None,
) -> BrokerFiles:
    """Write the broker's files into ``out`` (made if missing; existing files are refused)."""
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if (out / "mosquitto.conf").exists():
        raise SetupError(f"{out} already holds a broker (mosquitto.conf); choose another --out")
    (out / "data").mkdir(exist_ok=True)
    (out / "tables").mkdir(exist_ok=True)
    floor = Account(FLOOR_USER, new_password())
    accounts = {table: Account(table, new_password()) for table in tables}
    acl = out / "acl"
    acl.write_text(acl_text(list(accounts)), encoding="utf-8")
    passwd = out / "passwd"
    lines = [password_line(a.user, a.password) for a in (floor, *accounts.values())]
    passwd.write_text("\n".join(lines) + "\n", encoding="utf-8")
    passwd.chmod(0o600)
    ca, cert, key = make_certificates(out, host)
    conf = out / "mosquitto.conf"
    conf.write_text(
        mosquitto_conf(out, tls_port=tls_port, plain_port=plain_port, bind=bind, user=user),
        encoding="utf-8",
    )
    for table, account in accounts.items():
        snippet = out / "tables" / f"{table}.toml"
        snippet.write_text(floor_snippet(table, account, host, tls_port), encoding="utf-8")
        snippet.chmod(0o600)
    credentials = out / "floor-credentials.toml"
    credentials.write_text(
        f'broker = "mqtts://{host}:{tls_port}"\nusername = "{floor.user}"\n'
        f'password = "{floor.password}"\nca = "{ca}"\n',
        encoding="utf-8",
    )
    credentials.chmod(0o600)
    return BrokerFiles(
        out=out,
        conf=conf,
        passwd=passwd,
        acl=acl,
        ca=ca,
        cert=cert,
        key=key,
        host=host,
        tls_port=tls_port,
        plain_port=plain_port,
        floor=floor,
        tables=accounts,
    )
