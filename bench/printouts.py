"""Printouts as PDF (WeasyPrint): wall and CPU time of each kind for an event of N players.

    python bench/printouts.py [--players 16 256] [--repeat 3] [--kinds slips decklists]
                              [--layouts 1 2 4] [--json]

Uses ``DATABASE_URL`` when set, otherwise a scratch SQLite file under var/. Each event is
made through the services (guests registered, started, round 1 paired and published);
each PDF is asked through the test client as its organiser, ``--repeat`` times, and the
worst run is printed (wall and CPU seconds, pages, size). The PDF is made in the request
even when it is big enough for the background task (``BACKGROUND_PAGES``): the bench
measures the rendering, wherever it runs. ``--layouts``: the result slips one, two and
four to a sheet (``?layout=``, decision 0066); the other kinds are one to a page.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'bench-printouts.sqlite3'}")
os.environ.setdefault("FAST_PASSWORD_HASHER", "true")

KINDS = ("pairings", "pairings-by-name", "slips", "standings", "decklists")


def pages(pdf: bytes) -> int:
    parts = [pdf]
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        try:
            parts.append(zlib.decompress(match.group(1)))
        except zlib.error:
            continue
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", b"\n".join(parts)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[16, 256])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=KINDS)
    parser.add_argument("--layouts", type=int, nargs="+", default=[1], choices=[1, 2, 4])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    (ROOT / "var").mkdir(exist_ok=True)

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from tournaments.services import printouts as service
    from tournaments.services.events import create_event
    from tournaments.services.pairing import pair_next_round, publish_round
    from tournaments.services.players import register
    from tournaments.services.starting import start_event

    service.BACKGROUND_PAGES = 10**9  # measure the rendering itself, in the request
    call_command("migrate", verbosity=0)
    organiser, _ = get_user_model().objects.get_or_create(username="bench-printer")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    results = []
    for players in args.players:
        event = create_event(organiser, name=f"Print bench {players} {time.time_ns()}")
        for n in range(players):
            name = f"Игрок {n:04d}" if n % 2 else f"Player {n:04d}"
            register(event, display_name=name, actor=organiser)
        event = start_event(organiser, event)
        publish_round(organiser, pair_next_round(organiser, event))
        for kind, layout in [
            (k, n) for k in args.kinds for n in (args.layouts if k == "slips" else [1])
        ]:
            url = f"/events/{event.slug}/print/{kind}.pdf?layout={layout}"
            runs = []
            for _ in range(args.repeat):
                wall, cpu = time.perf_counter(), time.process_time()
                response = client.get(url)
                runs.append((time.perf_counter() - wall, time.process_time() - cpu))
                assert response.status_code == 200, (url, response.status_code)
            row = {
                "players": players,
                "kind": kind,
                "layout": layout,
                "wall_s": round(max(w for w, _c in runs), 2),
                "cpu_s": round(max(c for _w, c in runs), 2),
                "pages": pages(response.content),
                "kib": round(len(response.content) / 1024),
            }
            results.append(row)
            if not args.json:
                print(
                    f"{players:>5} players  {kind:<10} {layout}-up {row['pages']:>4} pages "
                    f"{row['kib']:>6} KiB  wall {row['wall_s']:>6.2f} s  cpu {row['cpu_s']:>6.2f} s"
                )
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
