// Footnote and comment references travel through the Markdown step as placeholders (they survive its
// escaping of `[`/`]`) and become `[^n]` / `[comment A1]` afterwards.

export const noteMarker = (id: string) => `\u27e6fn:${id}\u27e7`
export const commentMarker = (label: string) => `\u27e6c:${label}\u27e7`
const notePattern = /\u27e6fn:([^\u27e7]+)\u27e7/g

/** `#footnote-3` -> `3`, `#endnote-2` -> `e2`; undefined for any other link. */
export function noteId(href: string): string | undefined {
  const match = /^#(footnote|endnote)-(\d+)$/.exec(href)
  if (!match) return undefined
  return match[1] === 'endnote' ? `e${match[2]}` : match[2]
}

export function restoreNoteMarkers(markdown: string): string {
  return markdown.replace(notePattern, '[^$1]').replace(/\u27e6c:([^\u27e7]+)\u27e7/g, '[comment $1]')
}
