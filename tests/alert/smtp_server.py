#!/usr/bin/python3
"""A real SMTP server for the mail sink's tests: Debian's aiosmtpd on
127.0.0.1, with STARTTLS or implicit TLS and one user. Every accepted message
is written to OUT/N.eml (the content as received after DATA, dot-stuffing
undone by the server) with OUT/N.json holding the envelope."""

import argparse
import asyncio
import json
import os
import ssl

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Keep:
    def __init__(self, out):
        self.out = out
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        base = os.path.join(self.out, str(self.count))
        with open(base + ".eml.part", "wb") as f:
            f.write(envelope.original_content or envelope.content)
        with open(base + ".json", "w") as f:
            json.dump({"from": envelope.mail_from, "to": envelope.rcpt_tos,
                       "options": envelope.mail_options}, f)
        os.rename(base + ".eml.part", base + ".eml")
        return "250 2.0.0 kept as " + str(self.count)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--security", choices=["starttls", "tls", "none"], default="starttls")
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--user", default="")
    p.add_argument("--password", default="")
    p.add_argument("--only-login", action="store_true", help="offer AUTH LOGIN, not PLAIN")
    p.add_argument("--out", required=True)
    a = p.parse_args()

    ctx = None
    if a.security != "none":
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(a.cert, a.key)

    def check(server, session, envelope, mechanism, data):
        ok = (isinstance(data, LoginPassword) and data.login.decode() == a.user
              and data.password.decode() == a.password)
        # handled=False: the server answers 535 itself.
        return AuthResult(success=ok, handled=False)

    handler = Keep(a.out)

    def factory():
        # aiosmtpd counts only STARTTLS as TLS; with implicit TLS the whole
        # connection is TLS, so it may offer AUTH from the start.
        kw = dict(hostname="smtp.test", authenticator=check if a.user else None,
                  auth_require_tls=a.security == "starttls", auth_exclude_mechanism=["PLAIN"] if a.only_login else None)
        if a.security == "starttls":
            kw.update(tls_context=ctx, require_starttls=True)
        return SMTP(handler, **kw)

    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(loop.create_server(
        factory, "127.0.0.1", a.port, ssl=ctx if a.security == "tls" else None))
    print("listening", flush=True)
    try:
        loop.run_forever()
    finally:
        server.close()


if __name__ == "__main__":
    main()
