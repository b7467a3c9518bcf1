// Switching between the page's views (URL parameter `view`), and the one player they share.
//
// The tokenize view is always built (it is the default and the page's first paint). The
// others are ES modules loaded the first time they are shown. Each module exports
// `createView(context)` returning {activate(), deactivate(), settled?()}; `context` holds
// {engine, urlState, manifest, tokenize, player, root, placePlayer}. A view builds its own DOM
// inside `root` (no ids: several copies may live on one page when embedded) and hands the
// player a timeline when it has steps to show.
import { Player } from "./lib/player.js";
import { fetchViewModules } from "./lib/view-modules.js";
import { sheetsApplied } from "./lib/dom.js";

export const VIEW_NAMES = ["tokenize", "pipeline", "train", "encode", "compare", "chat"];
const MODULES = {
  pipeline: "./views/pipeline.js",
  train: "./views/train.js",
  encode: "./views/encode.js",
  compare: "./views/compare.js",
  chat: "./views/chat.js",
};

export class ViewSwitcher {
  constructor({ engine, urlState, manifest, tokenize, doc = document }) {
    this.context = { engine, urlState, manifest, tokenize };
    this.doc = doc;
    this.current = null;
    this.instances = new Map(); // name -> promise of the view (its module loads once)
    this.made = new Map(); // name -> the view, once made
    this.slot = doc.getElementById("player-slot");
    this.player = new Player({
      container: this.slot,
      // Keys work wherever the focus is (not only after a click into the view), as
      // long as a view with a timeline is on screen and no text field has the focus.
      scope: doc,
      active: () => !this.slot.hidden,
      onPosition: (k) => { if (this.current !== "tokenize") urlState.set({ step: k }); },
    });
  }

  start() {
    for (const link of /** @type {NodeListOf<HTMLElement>} */ (this.doc.querySelectorAll("#view-tabs [data-view]"))) {
      link.addEventListener("click", (event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        this.show(link.dataset.view);
      });
    }
    this.doc.addEventListener("subwordlab:why", (event) => this.why(event.detail));
    const wanted = this.context.urlState.get("view", "tokenize");
    this.show(VIEW_NAMES.includes(wanted) ? wanted : "tokenize", { initial: true });
  }

  async show(name, { initial = false, params = {} } = {}) {
    if (!VIEW_NAMES.includes(name)) throw new Error(`unknown view ${name}`);
    // Shown already, or still loading after a tab click: the same view, once it exists
    // (never undefined, so `(await showView(name)).settled()` works at any time).
    if (name === this.current) return name === "tokenize" ? this.context.tokenize : this.instance(name);
    this.made.get(this.current)?.deactivate?.();
    this.current = name;
    for (const section of /** @type {NodeListOf<HTMLElement>} */ (this.doc.querySelectorAll("main > section.view"))) {
      section.hidden = section.id !== `view-${name}`;
    }
    for (const link of /** @type {NodeListOf<HTMLElement>} */ (this.doc.querySelectorAll("#view-tabs [data-view]"))) {
      if (link.dataset.view === name) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    this.slot.hidden = true; // a view shows the player when it has a timeline
    if (!initial) {
      // Another view's parameters do not carry over, except the text and tokenizer.
      this.context.urlState.set({ view: name === "tokenize" ? null : name, step: null, ...params });
    }
    if (name === "tokenize") return this.context.tokenize;
    const view = await this.instance(name);
    if (this.current === name) view.activate({ initial });
    return view;
  }

  // "Why this token?" from the tokenize view: the encode view on that word with the same
  // tokenizer, and a Back button that returns to the same token in the text.
  async why({ key, word, index, focus }) {
    // Opened at its last step (the player clamps), so the answer shows; ← steps back.
    const params = { tokenizer: key, text: word, corpus: null, algo: null, step: 1e6 };
    if (focus) (await this.instance("encode")).focusOn?.(focus);
    const view = await this.show("encode", { params });
    view?.offerBack?.(() => {
      this.show("tokenize");
      this.context.tokenize.returnTo(index);
    });
  }

  instance(name) {
    if (!this.instances.has(name)) {
      const made = this.create(name);
      made.then((view) => this.made.set(name, view), () => this.instances.delete(name)); // a failed load is tried again
      this.instances.set(name, made);
    }
    return this.instances.get(name);
  }

  async create(name) {
    const root = this.doc.getElementById(`view-${name}`);
    fetchViewModules(name);
    const module = await import(MODULES[name]);
    const view = module.createView({
      ...this.context, root, player: this.player,
      // Put the shared player controls inside `container` (or hide them with null).
      placePlayer: (container) => {
        if (container) container.append(this.slot);
        this.slot.hidden = !container;
      },
    });
    // The view's own sheets (loadCss in its module) before it is activated, and those its
    // renderers add when they first draw (a lattice, the Code panel) before it counts as
    // settled: measured or looked at before they apply, its layout would be the wrong one.
    await sheetsApplied();
    const settled = view.settled?.bind(view);
    if (settled) view.settled = (...args) => settled(...args).then(async (value) => { await sheetsApplied(); return value; });
    return view;
  }
}
