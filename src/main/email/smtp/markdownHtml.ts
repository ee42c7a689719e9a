import type { Marked } from 'marked'

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

// Links and pictures keep only targets that start with one of these; `javascript:`, `data:`, `file:`,
// relative paths (nothing to resolve them against in a mail) and any spelling a mail reader would
// decode into a scheme (`&#106;avascript:`) become plain text.
const LINK_TARGET = /^(?:https?:|mailto:|tel:|#)/i
const IMAGE_TARGET = /^(?:https?:|cid:)/i

// Raw HTML in the model's Markdown is shown as text: a mail Bureau sends carries no markup it did not make.
// marked loads with the first mail written, not with the toolset.
let marked: Marked | undefined
const renderer = async () => {
  const { Marked, Renderer } = await import('marked')
  const base = new Renderer()
  marked ??= new Marked({
    gfm: true,
    breaks: true,
    renderer: {
      html: ({ text }) => escapeHtml(text),
      link(token) {
        if (LINK_TARGET.test(token.href)) return base.link.call(this, token)
        return this.parser.parseInline(token.tokens)
      },
      image(token) {
        if (IMAGE_TARGET.test(token.href)) return base.image.call(this, token)
        return escapeHtml(token.text)
      },
    },
  })
  return marked
}

/** The HTML part of a mail written in Markdown. */
export async function markdownToHtml(markdown: string): Promise<string> {
  const body = (await renderer()).parse(markdown, { async: false })
  return `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`
}
