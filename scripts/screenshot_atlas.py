"""`make screenshots`: page 2 of the demo's atlas (the first segment page) as
docs/screenshots/atlas_page.png, rendered from the PDF with pypdfium2 — what a reader of the
printed atlas sees. Run: ``python scripts/screenshot_atlas.py demo_output docs/screenshots``.
"""
import sys
from pathlib import Path

PAGE, SCALE = 1, 110 / 72  # page 2, 110 dpi (a README picture, not a print)


def main(demo_dir: str, out_dir: str) -> int:
    import pypdfium2 as pdfium

    pdf = Path(demo_dir) / "atlas.pdf"
    if not pdf.is_file():
        print(f"error: {pdf} not found — run `make demo` first (it writes the atlas)", file=sys.stderr)
        return 2
    doc = pdfium.PdfDocument(str(pdf))
    if len(doc) <= PAGE:
        print(f"error: {pdf} has {len(doc)} page(s), no segment page — run `make demo` again", file=sys.stderr)
        return 2
    out = Path(out_dir) / "atlas_page.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.part")
    doc[PAGE].render(scale=SCALE).to_pil().convert("RGB").save(tmp, format="PNG", optimize=True)
    tmp.replace(out)
    print(f"{out} ({out.stat().st_size / 1024:.0f} KiB, page {PAGE + 1} of {len(doc)} of {pdf})")
    return 0


if __name__ == "__main__":
    sys.exit(main(*(sys.argv[1:3] if len(sys.argv) >= 3 else ("demo_output", "docs/screenshots"))))
