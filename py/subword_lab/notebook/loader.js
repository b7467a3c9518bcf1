// Subword Lab's notebook widgets (anywidget): the page's own modules, shipped inside the
// package and written in below by subword_lab/notebook/front_end.py, dependencies first.
// Each module becomes a blob: URL, its imports of "@sl/<path>" pointing at the URLs made
// before it; the modules are made once per page for every widget of this build (KEY).
const KEY = __SUBWORD_LAB_KEY__;
const BUNDLE = __SUBWORD_LAB_BUNDLE__;

function load() {
  const shared = (globalThis.__subwordLabNotebook ??= {});
  shared[KEY] ??= (async () => {
    const { modules, sheets, entry } = JSON.parse(BUNDLE);
    const urls = new Map();
    for (const [path, source] of modules) {
      const code = source.replace(/"@sl\/([^"]+)"/g, (whole, target) => {
        const url = urls.get(target);
        if (!url) throw new Error(`Subword Lab: ${path} imports ${target} before it is loaded`);
        return JSON.stringify(url);
      });
      urls.set(path, URL.createObjectURL(new Blob([code], { type: "text/javascript" })));
    }
    const widgets = await import(urls.get(entry));
    widgets.useSheets(sheets);
    return widgets;
  })();
  return shared[KEY];
}

export default {
  async initialize({ model }) {
    const widgets = await load();
    return widgets.initialize({ model });
  },
  async render({ model, el }) {
    const widgets = await load();
    return widgets.render({ model, el });
  },
};
