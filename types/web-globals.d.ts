// Declarations for tsc --checkJs over web/ (tsconfig.json): the names the page puts on
// window, and the CustomEvents it dispatches (docs/automation.md, docs/events.md).
interface Window {
  /** The page's JS API (web/app.js). */
  subwordLab?: any;
  /** What the embeds share on one page (web/embed.js). */
  SubwordLab?: any;
}

interface SubwordLabEvents {
  "subwordlab:ready": CustomEvent;
  "subwordlab:step": CustomEvent;
  "subwordlab:error": CustomEvent;
  "subwordlab:why": CustomEvent;
}
interface ElementEventMap extends SubwordLabEvents {}
interface HTMLElementEventMap extends SubwordLabEvents {}
interface DocumentEventMap extends SubwordLabEvents {}
