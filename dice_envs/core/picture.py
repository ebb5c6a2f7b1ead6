"""Pictures of games: one scene per position, written out as SVG or painted into an RGB frame.

A game's ``picture.py`` draws a position into a ``Scene``, a flat list of shapes (rectangles,
circles, lines, polygons, text) in pixel coordinates.  The scene is the single source of both
outputs:

* ``Scene.to_svg()``: an SVG document, crisp at any size, for browsers, replays and the docs;
* ``Scene.to_array()``: an ``H x W x 3`` ``uint8`` frame for ``render_mode="rgb_array"``.

The frame is painted with Pillow's ``ImageDraw`` straight from the shapes rather than by
rasterising the SVG text.  Measured on a 60-dice scene (``benchmarks/render_speed.py``): resvg-py
takes several times as long per frame and CairoSVG longer still and needs the system's Cairo;
Pillow is a pure wheel that most Python installs already have, and keeps every game's frame
well under the 5 ms budget.  What Pillow does not do is anti-alias shapes: frames are for videos
and observation checks, the SVG is the picture for people.

Shapes carry an optional ``action``: the SVG marks them ``class="move" data-action="N"`` so a
page can make them clickable (``dice-envs serve``).  ``view_label`` names whose view the scene
shows; hidden things are drawn face down unless the view is the spectator's.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from functools import cache, lru_cache
from html import escape
from itertools import accumulate
from typing import Literal

import numpy as np
from PIL import Image, ImageDraw, ImageFont

Anchor = Literal["start", "middle", "end"]

FONT_FAMILY = "Helvetica, Arial, Liberation Sans, DejaVu Sans, sans-serif"
"""Narrow fonts first: layouts are measured with Pillow's bundled font (``text_width``), and a
browser's Helvetica or Arial runs about as wide."""
BACKGROUND = "#f4efe3"
INK = "#2b2b2b"
MUTED = "#8a8375"
PANEL = "#fffaf0"
HIGHLIGHT = "#d9480f"
FACE_DOWN = "#5c6b8a"
SEAT_COLOURS = ("#c92a2a", "#1971c2", "#2f9e44", "#e8a317", "#862e9c", "#0c8599", "#d6336c", "#5c940d")
"""One colour per seat, the same in every game."""


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = PANEL
    stroke: str | None = INK
    width: float = 1.0
    radius: float = 0.0
    action: int | None = None


@dataclass(frozen=True, slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str | None = INK
    stroke: str | None = None
    width: float = 1.0
    action: int | None = None


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = INK
    width: float = 1.0


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str | None = PANEL
    stroke: str | None = INK
    width: float = 1.0
    action: int | None = None


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float
    text: str
    size: float = 12.0
    fill: str = INK
    anchor: Anchor = "start"
    bold: bool = False
    """``y`` is the middle of the line, so text centres on shapes in both outputs."""


Shape = Rect | Circle | Line | Polygon | Text


@dataclass
class Scene:
    """A picture under construction: shapes in drawing order, later ones on top."""

    width: int
    height: int
    title: str
    view_label: str
    background: str = BACKGROUND
    shapes: list[Shape] = field(default_factory=list)

    def add(self, shape: Shape) -> Shape:
        self.shapes.append(shape)
        return shape

    def rect(self, x: float, y: float, w: float, h: float, **style: object) -> None:
        self.shapes.append(Rect(x, y, w, h, **style))  # type: ignore[arg-type]

    def circle(self, cx: float, cy: float, r: float, **style: object) -> None:
        self.shapes.append(Circle(cx, cy, r, **style))  # type: ignore[arg-type]

    def line(self, x1: float, y1: float, x2: float, y2: float, **style: object) -> None:
        self.shapes.append(Line(x1, y1, x2, y2, **style))  # type: ignore[arg-type]

    def polygon(self, points: list[tuple[float, float]], **style: object) -> None:
        self.shapes.append(Polygon(tuple(points), **style))  # type: ignore[arg-type]

    def text(self, x: float, y: float, text: str, **style: object) -> None:
        self.shapes.append(Text(x, y, text, **style))  # type: ignore[arg-type]

    # ---------------------------------------------------------------- outputs
    def to_svg(self) -> str:
        """The scene as a standalone SVG document (deterministic: the same scene, the same bytes)."""
        out = [
            (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" font-family="{FONT_FAMILY}" role="img">'),
            f"<title>{escape(self.title)} ({escape(self.view_label)})</title>",
            f'<rect width="{self.width}" height="{self.height}" fill="{self.background}"/>',
        ]
        out += [_svg(shape) for shape in self.shapes]
        out.append("</svg>")
        return "\n".join(out)

    def to_array(self) -> np.ndarray:
        """The scene as an ``H x W x 3`` ``uint8`` RGB frame: a new, read-only array each call."""
        image = _canvas(self.width, self.height)
        image.paste(self.background, (0, 0, self.width, self.height))
        draw = ImageDraw.Draw(image)
        for shape in self.shapes:
            _paint(image, draw, shape)
        return np.asarray(image)


@lru_cache(maxsize=4096)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` runs at ``size`` (Pillow's bundled font; bold a little wider), for layouts."""
    return _font(size).getlength(text) * (1.05 if bold else 1.0)


# ------------------------------------------------------------------------ SVG
def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _style(fill: str | None, stroke: str | None, width: float) -> str:
    parts = [f'fill="{fill or "none"}"']
    if stroke:
        parts.append(f'stroke="{stroke}" stroke-width="{_num(width)}"')
    return " ".join(parts)


def _move(action: int | None) -> str:
    return "" if action is None else f' class="move" data-action="{action}"'


_SVG_ANCHOR = {"start": "start", "middle": "middle", "end": "end"}


def _svg(shape: Shape) -> str:
    if isinstance(shape, Rect):
        corner = f' rx="{_num(shape.radius)}"' if shape.radius else ""
        return (
            f'<rect x="{_num(shape.x)}" y="{_num(shape.y)}" width="{_num(shape.w)}" height="{_num(shape.h)}"{corner} '
            f"{_style(shape.fill, shape.stroke, shape.width)}{_move(shape.action)}/>"
        )
    if isinstance(shape, Circle):
        return (
            f'<circle cx="{_num(shape.cx)}" cy="{_num(shape.cy)}" r="{_num(shape.r)}" '
            f"{_style(shape.fill, shape.stroke, shape.width)}{_move(shape.action)}/>"
        )
    if isinstance(shape, Line):
        return (
            f'<line x1="{_num(shape.x1)}" y1="{_num(shape.y1)}" x2="{_num(shape.x2)}" y2="{_num(shape.y2)}" '
            f'stroke="{shape.stroke}" stroke-width="{_num(shape.width)}"/>'
        )
    if isinstance(shape, Polygon):
        points = " ".join(f"{_num(x)},{_num(y)}" for x, y in shape.points)
        return f'<polygon points="{points}" {_style(shape.fill, shape.stroke, shape.width)}{_move(shape.action)}/>'
    weight = ' font-weight="bold"' if shape.bold else ""
    return (
        f'<text x="{_num(shape.x)}" y="{_num(shape.y)}" font-size="{_num(shape.size)}" fill="{shape.fill}" '
        f'text-anchor="{_SVG_ANCHOR[shape.anchor]}" dominant-baseline="central"{weight}>{escape(shape.text)}</text>'
    )


# --------------------------------------------------------------------- raster
_ANCHOR_SHIFT = {"start": 0.0, "middle": 0.5, "end": 1.0}
"""How much of its width text lies left of its anchor point."""


_canvases = threading.local()


def _canvas(width: int, height: int) -> Image.Image:
    """This thread's image of that size, painted over frame after frame: a new 1000 x 700 image
    costs more than the frame drawn on it (its memory is fresh from the system each time)."""
    by_size = _canvases.__dict__.setdefault("by_size", {})
    if (width, height) not in by_size:
        by_size[(width, height)] = Image.new("RGB", (width, height))
    return by_size[(width, height)]


@cache
def _font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` (no system fonts needed)."""
    return ImageFont.load_default(size=size)


TEXT_SUPERSAMPLING = 4
"""Text is drawn this many times larger and scaled down.  Drawn at its own small size, FreeType's
hinting rounds every letter's advance to whole pixels, and at 9-12 px letters stand 1-2 px apart,
as far as the font's space: words ran together ("runners-upofeach").  Drawn large, the letters keep
their true spacing (and are anti-aliased)."""

WORD_SPACE = 0.3
"""The space between words in frames, in ems: the bundled font's own space is 0.22 em, about 2 px
in small text, while a browser's Helvetica or Arial (the SVG's) gives 0.28."""


@lru_cache(maxsize=8192)
def _text_mask(text: str, size: float, anchor: Anchor, bold: bool) -> tuple[Image.Image, int, int]:
    """``text`` rendered once as a coverage mask, with its offset from the anchor point.  Shaping
    text with FreeType costs about half a millisecond a string, most of a frame; the same labels
    and numbers come back frame after frame, so each is shaped once and then only pasted.  Words
    are placed one by one, ``WORD_SPACE`` apart."""
    scale = TEXT_SUPERSAMPLING
    font, stroke = _font(size * scale), (0.4 if bold else 0) * scale
    space = max(font.getlength(" "), WORD_SPACE * size * scale)
    words = text.split(" ")
    starts = list(accumulate((font.getlength(word) + space for word in words[:-1]), initial=0.0))
    shift = (starts[-1] + font.getlength(words[-1])) * _ANCHOR_SHIFT[anchor]
    placed = [(start - shift, word) for start, word in zip(starts, words) if word]
    boxes = [font.getbbox(word, anchor="lm", stroke_width=stroke) for _, word in placed]
    # The large mask's corner on a multiple of the scale, so its pixels fall whole into the small one's.
    left = math.floor(min((x + box[0] for (x, _), box in zip(placed, boxes)), default=0) / scale)
    top = math.floor(min((box[1] for box in boxes), default=0) / scale)
    right = math.ceil(max((x + box[2] for (x, _), box in zip(placed, boxes)), default=0) / scale)
    bottom = math.ceil(max((box[3] for box in boxes), default=0) / scale)
    large = Image.new("L", (max(1, right - left) * scale, max(1, bottom - top) * scale))
    draw = ImageDraw.Draw(large)
    for x, word in placed:
        draw.text((x - left * scale, -top * scale), word, fill=255, font=font, anchor="lm", stroke_width=stroke, stroke_fill=255)
    return large.reduce(scale), left, top


_TILE_AREA = 80 * 80
"""Rounded rectangles up to this many pixels are pasted from a drawn tile; pasting costs by the
pixel, so a larger one (a panel) is cheaper drawn afresh."""


@lru_cache(maxsize=4096)
def _rounded_tile(w: int, h: int, radius: float, fill: str | None, stroke: str | None, width: int) -> Image.Image:
    """A rounded rectangle drawn once on a transparent tile: Pillow draws the corners as four pie
    slices, dozens of microseconds a rectangle, while dice and cards repeat the same few."""
    tile = Image.new("RGBA", (w + 1, h + 1))
    ImageDraw.Draw(tile).rounded_rectangle((0, 0, w, h), radius, fill=fill, outline=stroke, width=width if stroke else 0)
    return tile


def _paint(image: Image.Image, draw: ImageDraw.ImageDraw, shape: Shape) -> None:
    if isinstance(shape, Rect):
        if shape.radius and shape.w * shape.h <= _TILE_AREA:
            tile = _rounded_tile(round(shape.w), round(shape.h), shape.radius, shape.fill, shape.stroke, round(shape.width))
            image.paste(tile, (round(shape.x), round(shape.y)), tile)
        else:
            box = (shape.x, shape.y, shape.x + shape.w, shape.y + shape.h)
            outline, width = (shape.stroke, round(shape.width)) if shape.stroke else (None, 0)
            if shape.radius:
                draw.rounded_rectangle(box, shape.radius, fill=shape.fill, outline=outline, width=width)
            else:
                draw.rectangle(box, fill=shape.fill, outline=outline, width=width)
    elif isinstance(shape, Circle):
        box = (shape.cx - shape.r, shape.cy - shape.r, shape.cx + shape.r, shape.cy + shape.r)
        draw.ellipse(box, fill=shape.fill, outline=shape.stroke, width=round(shape.width) if shape.stroke else 0)
    elif isinstance(shape, Line):
        draw.line((shape.x1, shape.y1, shape.x2, shape.y2), fill=shape.stroke, width=round(shape.width))
    elif isinstance(shape, Polygon):
        draw.polygon(shape.points, fill=shape.fill, outline=shape.stroke, width=round(shape.width) if shape.stroke else 0)
    else:
        mask, left, top = _text_mask(shape.text, shape.size, shape.anchor, shape.bold)
        image.paste(shape.fill, (round(shape.x) + left, round(shape.y) + top), mask)
