/** Cuts Markdown to `maxChars` at a line boundary and says how much was left out. */
export function fitToBudget(
  markdown: string,
  maxChars: number | undefined,
): { markdown: string; truncated: boolean } {
  if (!maxChars || markdown.length <= maxChars) return { markdown, truncated: false }
  const note = (shown: number) => `\n\n[… truncated: showing ${shown} of ${markdown.length} characters]`
  const room = Math.max(0, maxChars - note(markdown.length).length)
  let cut = markdown.lastIndexOf('\n', room)
  if (cut < room * 0.8) cut = room
  const head = markdown.slice(0, cut).trimEnd()
  return { markdown: `${head}${note(head.length)}`, truncated: true }
}
