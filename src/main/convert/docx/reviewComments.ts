import { SaxesParser } from 'saxes'

// Read only for documents that have comments: the conversion worker loads this module (and saxes) on demand.

export interface CommentEntry {
  id: string
  author: string
  date: string
  text: string
  /** w14:paraId of the comment's last paragraph: what commentsExtended.xml refers to. */
  paraId?: string
}

/** The comments of word/comments.xml, in order, each with its text (paragraphs joined by " / "). */
export function readComments(xml: string): CommentEntry[] {
  const parser = new SaxesParser()
  const comments: CommentEntry[] = []
  let current: CommentEntry | undefined
  let paragraphs: string[] = []
  let inText = false
  parser.on('opentag', (tag) => {
    const attrs = tag.attributes as Record<string, string>
    if (tag.name === 'w:comment') {
      current = {
        id: attrs['w:id'] ?? '',
        author: attrs['w:author'] || 'unknown',
        date: (attrs['w:date'] ?? '').slice(0, 10),
        text: '',
      }
      paragraphs = []
    } else if (current && tag.name === 'w:p') {
      paragraphs.push('')
      const paraId = attrs['w14:paraId']
      if (paraId) current.paraId = paraId
      else delete current.paraId
    } else if (current && tag.name === 'w:t') inText = true
    else if (current && tag.name === 'w:tab') paragraphs[paragraphs.length - 1] += '\t'
  })
  parser.on('text', (text) => {
    if (inText && paragraphs.length > 0) paragraphs[paragraphs.length - 1] += text
  })
  parser.on('closetag', (tag) => {
    if (tag.name === 'w:t') inText = false
    if (tag.name === 'w:comment' && current) {
      current.text = paragraphs
        .map((p) => p.trim())
        .filter(Boolean)
        .join(' / ')
      comments.push(current)
      current = undefined
    }
  })
  parser.write(xml).close()
  return comments
}

export interface CommentState {
  parent?: string
  done: boolean
}

/** word/commentsExtended.xml: paraId -> its parent's paraId (a reply) and whether the thread is done. */
export function readCommentStates(xml: string): Map<string, CommentState> {
  const parser = new SaxesParser()
  const states = new Map<string, CommentState>()
  parser.on('opentag', (tag) => {
    if (tag.name !== 'w15:commentEx') return
    const attrs = tag.attributes as Record<string, string>
    const paraId = attrs['w15:paraId']
    if (!paraId) return
    const parent = attrs['w15:paraIdParent']
    states.set(paraId, { ...(parent ? { parent } : {}), done: attrs['w15:done'] === '1' })
  })
  parser.write(xml).close()
  return states
}

/** The "## Comments" section: threads in document order, replies indented under the comment they answer. */
export function commentSection(comments: CommentEntry[], states: Map<string, CommentState>): string {
  if (comments.length === 0) return ''
  const byPara = new Map(comments.flatMap((c) => (c.paraId ? [[c.paraId, c] as const] : [])))
  const parentOf = (c: CommentEntry) => {
    const parent = c.paraId ? states.get(c.paraId)?.parent : undefined
    return parent ? byPara.get(parent) : undefined
  }
  const line = (c: CommentEntry, indent: string) => {
    const done = c.paraId && states.get(c.paraId)?.done ? '(resolved) ' : ''
    return `${indent}- [c${c.id}] ${done}${c.author}${c.date ? ` ${c.date}` : ''}: ${c.text}`
  }
  const lines: string[] = []
  for (const comment of comments) {
    if (parentOf(comment)) continue
    lines.push(line(comment, ''))
    for (const reply of comments) if (parentOf(reply) === comment) lines.push(line(reply, '  '))
  }
  return `## Comments\n\n${lines.join('\n')}`
}
