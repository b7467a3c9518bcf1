// The host page's theme, for a widget with no theme of its own (no `theme`, or "auto"):
// whether the page is dark where the widget sits, and the widgets that follow it.
// Whether the host page is dark where the widget sits: the first background behind it that
// is not transparent, by its luminance; with none, the canvas, dark only when the page
// allows a dark scheme (color-scheme) and the system asks for it.
const DARK_SYSTEM = matchMedia("(prefers-color-scheme: dark)");
export function hostIsDark(node) {
  for (let at = node.parentElement; at; at = at.parentElement) {
    const bg = getComputedStyle(at).backgroundColor;
    const rgba = /^rgba?\(/.test(bg) ? bg.match(/[\d.]+/g).map(Number) : null;
    if (!rgba) continue;
    if (rgba.length > 3 && rgba[3] < 0.5) continue;
    return (0.2126 * rgba[0] + 0.7152 * rgba[1] + 0.0722 * rgba[2]) / 255 < 0.45;
  }
  const scheme = getComputedStyle(document.documentElement).colorScheme || "";
  return scheme.includes("dark") && (DARK_SYSTEM.matches || !scheme.includes("light"));
}

// Widgets that follow the host's theme look again when the system's preference changes or
// the host changes its root's or body's class, style or data-theme (a theme switch).
const followers = new Set();
const relook = () => followers.forEach((widget) => widget.applyTheme());
DARK_SYSTEM.addEventListener("change", relook);
const themeWatch = new MutationObserver(relook);
function watchHostTheme() {
  for (const node of [document.documentElement, document.body]) {
    if (node) themeWatch.observe(node, { attributes: true, attributeFilter: ["class", "style", "data-theme"] });
  }
}

// `widget.applyTheme()` runs again whenever the host's theme may have changed.
export function follow(widget) {
  followers.add(widget);
  watchHostTheme();
}

export function unfollow(widget) {
  followers.delete(widget);
}
