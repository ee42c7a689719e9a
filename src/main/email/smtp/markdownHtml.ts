import type { Marked } from 'marked'
import { lazyLibrary } from '../../tools'

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

// Raw HTML in the model's Markdown is shown as text: a mail Bureau sends carries no markup it did not make.
// Loaded with the first mail sent, not with the toolset.
const markedLibrary = lazyLibrary<typeof import('marked')>('marked')
let marked: Marked | undefined
const renderer = () =>
  (marked ??= new (markedLibrary().Marked)({
    gfm: true,
    breaks: true,
    renderer: { html: ({ text }) => escapeHtml(text) },
  }))

/** The HTML part of a mail written in Markdown. */
export function markdownToHtml(markdown: string): string {
  const body = renderer().parse(markdown, { async: false })
  return `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`
}
