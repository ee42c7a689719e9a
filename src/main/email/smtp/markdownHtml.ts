import type { Marked } from 'marked'

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

// Raw HTML in the model's Markdown is shown as text: a mail Bureau sends carries no markup it did not make.
// marked loads with the first mail written, not with the toolset.
let marked: Marked | undefined
const renderer = async () => {
  marked ??= new (await import('marked')).Marked({
    gfm: true,
    breaks: true,
    renderer: { html: ({ text }) => escapeHtml(text) },
  })
  return marked
}

/** The HTML part of a mail written in Markdown. */
export async function markdownToHtml(markdown: string): Promise<string> {
  const body = (await renderer()).parse(markdown, { async: false })
  return `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`
}
