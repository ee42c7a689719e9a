import type { AttachmentMeta } from '../../../shared/ipc'

export interface ConvertedFile {
  meta: AttachmentMeta
  markdown: string
}

/** Cuts text to `max` characters at a line boundary when one is close, and marks the cut. */
export function cutToShare(markdown: string, max: number): { markdown: string; truncated: boolean } {
  if (markdown.length <= max) return { markdown, truncated: false }
  const mark = (shown: number) => `\n\n[… cut: showing ${shown} of ${markdown.length} characters]`
  const room = Math.max(0, max - mark(markdown.length).length)
  let cut = markdown.lastIndexOf('\n', room)
  if (cut < room * 0.8) cut = room
  const head = markdown.slice(0, cut).trimEnd()
  return { markdown: `${head}${mark(head.length)}`, truncated: true }
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}

function block(file: ConvertedFile): string {
  const attrs = [`name="${attribute(file.meta.name)}"`]
  if (file.meta.agentPath) attrs.push(`path="${attribute(file.meta.agentPath)}"`)
  if (file.meta.format) attrs.push(`format="${file.meta.format}"`)
  if (file.meta.truncated) attrs.push('truncated="true"')
  return `<attachment ${attrs.join(' ')}>\n${file.markdown.trim()}\n</attachment>`
}

/** The text appended to the user's message: each converted file in a named block, then the failures. */
export function attachmentContext(files: readonly ConvertedFile[], failures: readonly string[]): string {
  if (files.length === 0 && failures.length === 0) return ''
  const parts: string[] = []
  if (files.length > 0) {
    const saved = files.some((file) => file.meta.agentPath)
    parts.push(
      `The user attached ${files.length === 1 ? 'a file' : `${files.length} files`}, converted to Markdown below.${
        saved
          ? ' The originals are saved in the workspace at the given paths; edit those with the tools.'
          : ''
      }`,
      ...files.map(block),
    )
  }
  if (failures.length > 0)
    parts.push(
      `These attached files could not be read and were skipped; tell the user:\n${failures.map((f) => `- ${f}`).join('\n')}`,
    )
  return parts.join('\n\n')
}
