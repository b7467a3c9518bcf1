// Each lazily loaded view's modules: the view's own and every module they import
// statically, written in by build.py (tools/module_graph.py). Asked for all at once,
// they arrive in one round trip instead of one per level of imports. Empty when the
// site is served unbuilt from web/: the views then load as before, level by level.
export const VIEW_MODULES = /* VIEW_MODULES: build.py writes them here */ {};

const root = new URL("../", import.meta.url);

// Start fetching `view`'s modules; the view's own import() later finds them loaded
// (or reports the error itself, so one here is left to it).
export function fetchViewModules(view) {
  for (const rel of VIEW_MODULES[view] ?? []) import(new URL(rel, root).href).catch(() => {});
}
