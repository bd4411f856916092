"""What the browser tests check on a page (overflow, headings, axe, keyboard focus), and screenshots."""

import os
import shutil
import tempfile
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from django.conf import settings

# A test run leaves the committed pictures alone: some differ by a few pixels from run to
# run (the capture panel's did), and each `make test` left them changed in the work tree.
# `make screenshots` sets UPDATE_SCREENSHOTS to refresh the ones the README shows.
if os.environ.get("UPDATE_SCREENSHOTS"):
    SCREENSHOTS = Path(settings.BASE_DIR) / "docs" / "screenshots"
else:
    # One folder a process: test runs side by side never write the same file.
    SCREENSHOTS = Path(tempfile.gettempdir()) / f"evidence-ledger-screenshots-{os.getpid()}"

# Fail on these whatever their impact: the issue asks for landmarks, headings in
# order, a skip link, labelled controls and a language.
REQUIRED_RULES = {
    "bypass",
    "heading-order",
    "html-has-lang",
    "html-lang-valid",
    "label",
    "landmark-banner-is-top-level",
    "landmark-complementary-is-top-level",
    "landmark-contentinfo-is-top-level",
    "landmark-main-is-top-level",
    "landmark-no-duplicate-banner",
    "landmark-no-duplicate-contentinfo",
    "landmark-no-duplicate-main",
    "landmark-one-main",
    "landmark-unique",
    "page-has-heading-one",
    "region",
    "select-name",
    "skip-link",
}
FAILING_IMPACTS = {"serious", "critical"}

_axe = Axe()


def axe_violations(page, required=REQUIRED_RULES, **options):
    """axe-core's serious and critical violations on the page, plus any of `required`.

    The admin's pages pass `required=()`: their landmarks and headings are Django's.
    `options` go to axe.run().
    """
    results = _axe.run(page, options={"resultTypes": ["violations"], **options})
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in results.response["violations"]
        if v["impact"] in FAILING_IMPACTS or v["id"] in required
    ]


def heading_levels(page):
    return page.eval_on_selector_all(
        "h1, h2, h3, h4, h5, h6", "hs => hs.map(h => Number(h.tagName[1]))"
    )


def skipped_heading_levels(page):
    """Headings that go down more than one level from the one before, e.g. an h3 after an h1."""
    levels = heading_levels(page)
    return [
        f"h{after} after h{before}"
        for before, after in zip([0, *levels], levels, strict=False)
        if after > before + 1
    ]


# Anything wider than the viewport, or clipped inside a box that scrolls sideways.
_OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const problems = [];
  const name = (el) => el.tagName.toLowerCase() + (el.className ? "." + [...el.classList].join(".") : "");
  for (const el of document.body.querySelectorAll("*")) {
    const style = getComputedStyle(el);
    if (["auto", "scroll"].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name(el)} scrolls sideways: ${el.scrollWidth}px of content in ${el.clientWidth}px`);
    }
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    if (box.right > width + 1 || box.left < -1) {
      problems.push(`${name(el)} spans ${Math.round(box.left)}..${Math.round(box.right)}px of ${width}px`);
    }
  }
  return problems;
}"""


def horizontal_overflow(page):
    """Why the page does not fit its viewport's width, or [] when it does."""
    problems = page.evaluate(_OVERFLOW)
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    width = page.viewport_size["width"]
    if scroll_width > width:
        problems.insert(0, f"the page is {scroll_width}px wide in a {width}px viewport")
    return problems


def focus_is_visible(page):
    """The focused element draws an outline of at least 2px."""
    return page.evaluate(
        """() => {
          const style = getComputedStyle(document.activeElement);
          return style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
        }"""
    )


def tab_to(page, target, limit=150, key="Tab"):
    """Press Tab (or `key`: "Shift+Tab") until `target` has the focus, checking that every
    stop shows where it is."""
    for _ in range(limit):
        page.keyboard.press(key)
        if page.evaluate("document.activeElement === document.body"):
            # No element has the focus: the browser's own stop past the page's last
            # element, or a page still loading on a busy machine (make test failed on
            # it once). There is nothing of the page's to outline; Tab goes on.
            continue
        focused = page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
        assert focus_is_visible(page), f"no visible focus on {focused}"
        if target.evaluate("el => el === document.activeElement"):
            return
    raise AssertionError(f"{target} was not reached in {limit} presses of {key}")


def save_screenshot(page, name, full_page=False):
    """Write <name>.png into SCREENSHOTS: docs/screenshots, which the README shows, when
    UPDATE_SCREENSHOTS is set."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    target = SCREENSHOTS / f"{name}.png"
    fresh = target.with_suffix(".new.png")
    page.screenshot(path=fresh, full_page=full_page, animations="disabled", caret="hide")
    # Only touch the committed file when the picture changed.
    if target.exists() and target.read_bytes() == fresh.read_bytes():
        fresh.unlink()
    else:
        shutil.move(fresh, target)
