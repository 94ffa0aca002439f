"""The one label font of every GeoFidelity style and layout: "DejaVu Sans" (Debian package
fonts-dejavu-core, installed by scripts/setup_system.sh). QGIS writes the machine's default font
into a style when none is set, and a font missing on the user's machine raises a warning bar
when the project opens — so every style script sets it explicitly.

Run ``python scripts/style_fonts.py`` to rewrite every ``fontFamily`` attribute in
resources/styles/*.qml and resources/layouts/*.qpt, and every layout QFont ``description`` whose
family is not a DejaVu one, to the label font (idempotent)."""
import re
import sys
from pathlib import Path

LABEL_FONT = "DejaVu Sans"
ROOT = Path(__file__).resolve().parent.parent
_FONT_ATTRIBUTE = re.compile(r'\b(fontFamily)="[^"]*"')
#: a layout item's QFont (``<styleFont description="Family,12,-1,5,50,…"/>``); the DejaVu families stay
_QFONT_DESCRIPTION = re.compile(r'(<\w*[Ff]ont\b[^>]*\bdescription=")(?!DejaVu Sans[,\s]|DejaVu Sans Mono,|DejaVu Serif,)'
                                r'([^",]*)')


def set_label_font(text_format) -> None:
    """Name the label font in a ``QgsTextFormat`` (its QFont and its family)."""
    from qgis.PyQt.QtGui import QFont

    font = QFont(LABEL_FONT)
    font.setFamily(LABEL_FONT)
    text_format.setFont(font)


def style_files() -> list[Path]:
    return sorted((ROOT / "resources" / "styles").glob("*.qml")) + \
        sorted((ROOT / "resources" / "layouts").glob("*.qpt"))


def rewrite_fonts(path: Path) -> bool:
    """Name only the label font in ``path``; True when the file changed."""
    text = path.read_text(encoding="utf-8")
    new = _FONT_ATTRIBUTE.sub(lambda m: f'{m.group(1)}="{LABEL_FONT}"', text)
    new = _QFONT_DESCRIPTION.sub(lambda m: m.group(1) + LABEL_FONT, new)
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


if __name__ == "__main__":
    changed = [p for p in style_files() if rewrite_fonts(p)]
    print(f"{len(changed)} file(s) now name only {LABEL_FONT!r}: " + ", ".join(p.name for p in changed))
    sys.exit(0)
