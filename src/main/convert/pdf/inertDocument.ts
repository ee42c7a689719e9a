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

interface FontLoaderLike {
  bind?: (font: { attached?: boolean }) => Promise<void>
}

/**
 * The rule pdf.js would add to the inert document embeds the whole font program as base64 (a JS
 * polyfill in Node 20), only to be thrown away. The document's font loader is told every font is attached
 * instead; nothing else reads the rule. Without the (underscored, undocumented) transport the loader
 * keeps pdf.js's behaviour.
 */
export function skipFontFaceRules(document: unknown): void {
  const loader = (document as { _transport?: { fontLoader?: FontLoaderLike } })._transport?.fontLoader
  if (typeof loader?.bind !== 'function') return
  loader.bind = async (font) => {
    font.attached = true
  }
}
