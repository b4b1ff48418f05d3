"""The README's screenshot: the app itself, on the bundled demo, drawn headless to an SVG.

    python tools/make_screenshot.py [--out docs/screenshot.svg] [--size 140x38] [--keys "3 w"]

Runs with the project's own venv (no framework needed). The app is started the way the tests
start it (no cursor blink, no animation, no user themes), so the same checkout
draws the same picture.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


async def draw(out: Path, size: tuple[int, int], keys: list[str]) -> None:
    from workbench.commands.common import demo_config
    from workbench.tui.app import create_app
    from workbench.tui.driving import wait_for
    from workbench.tui.session import Inputs

    app = create_app(Inputs(configs=(str(demo_config()),)), watch=True, deterministic=True)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: app.loads > 0, timeout=60)
        for key in keys:
            await pilot.press(key)
            await wait_for(pilot, lambda: True, timeout=60)
        svg = app.export_screenshot(title="Prompt Workbench")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(svg, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.svg")
    parser.add_argument("--size", default="140x38", help="COLUMNSxROWS (default 140x38: the wide layout)")
    parser.add_argument("--keys", default="", help="keys to press first, space-separated (e.g. 'n w')")
    args = parser.parse_args(argv)
    columns, rows = (int(n) for n in args.size.lower().split("x"))
    # never the developer's own themes
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="workbench-screenshot-")
    asyncio.run(draw(args.out, (columns, rows), args.keys.split()))
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
