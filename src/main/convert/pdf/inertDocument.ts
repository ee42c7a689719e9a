/**
 * The `ownerDocument` pdf.js's font loader attaches fonts to. With `disableFontFace: true` (pdf.js's
 * default in Node) the worker compiles every glyph a page shows into a path and posts it over (a third of
 * the work on a text PDF), for rendering this converter never does. With font faces enabled pdf.js instead
 * adds one `@font-face` rule per font to this stand-in, which keeps nothing; text extraction is the same.
 */
export const inertDocument = {
  createElement: () => ({ sheet: { cssRules: [], insertRule() {} }, remove() {} }),
  documentElement: { getElementsByTagName: () => [{ append() {} }] },
} as const
