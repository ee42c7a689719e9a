import { readPlainXml } from '../xml/plainXml'

// Comment threads (word/comments.xml, word/commentsExtended.xml) are read by the plain-XML reader, as Office
// writes them; only a part outside that subset is read by saxes, imported then (the Word worker's chunk and
// its code cache stay free of it).

export interface CommentEntry {
  id: string
  author: string
  date: string
  text: string
  /** w14:paraId of the comment's last paragraph: what commentsExtended.xml refers to. */
  paraId?: string
}

export interface CommentState {
  parent?: string
  done: boolean
}

interface XmlEvents {
  open(name: string, attributes: Record<string, string>): void
  text(text: string): void
  close(name: string): void
}

/** Feeds `xml` to a fresh reader from `make` (plain-XML first, saxes for the rest); returns that reader. */
async function readXml<T extends XmlEvents>(xml: string, make: () => T): Promise<T> {
  const plain = make()
  const read = readPlainXml(
    xml,
    {
      open: (name, pairs) => {
        const attributes: Record<string, string> = {}
        for (let at = 0; at + 1 < pairs.length; at += 2)
          attributes[pairs[at] as string] = pairs[at + 1] as string
        plain.open(name, attributes)
      },
      text: (text) => plain.text(text),
      close: (name) => plain.close(name),
    },
    { normaliseAttributeSpace: true },
  )
  if (read) return plain
  const reader = make()
  const { SaxesParser } = await import('saxes')
  const parser = new SaxesParser()
  parser.on('opentag', (tag) => reader.open(tag.name, tag.attributes as Record<string, string>))
  parser.on('text', (text) => reader.text(text))
  parser.on('closetag', (tag) => reader.close(tag.name))
  parser.write(xml).close()
  return reader
}

function commentsReader() {
  const comments: CommentEntry[] = []
  let current: CommentEntry | undefined
  let paragraphs: string[] = []
  let inText = false
  return {
    comments,
    open(name: string, attrs: Record<string, string>) {
      if (name === 'w:comment') {
        current = {
          id: attrs['w:id'] ?? '',
          author: attrs['w:author'] || 'unknown',
          date: (attrs['w:date'] ?? '').slice(0, 10),
          text: '',
        }
        paragraphs = []
      } else if (current && name === 'w:p') {
        paragraphs.push('')
        const paraId = attrs['w14:paraId']
        if (paraId) current.paraId = paraId
        else delete current.paraId
      } else if (current && name === 'w:t') inText = true
      else if (current && name === 'w:tab') paragraphs[paragraphs.length - 1] += '\t'
    },
    text(text: string) {
      if (inText && paragraphs.length > 0) paragraphs[paragraphs.length - 1] += text
    },
    close(name: string) {
      if (name === 'w:t') inText = false
      if (name === 'w:comment' && current) {
        current.text = paragraphs
          .map((p) => p.trim())
          .filter(Boolean)
          .join(' / ')
        comments.push(current)
        current = undefined
      }
    },
  }
}

/** The comments of word/comments.xml, in order, each with its text (paragraphs joined by " / "). */
export async function readComments(xml: string): Promise<CommentEntry[]> {
  return (await readXml(xml, commentsReader)).comments
}

function statesReader() {
  const states = new Map<string, CommentState>()
  return {
    states,
    open(name: string, attrs: Record<string, string>) {
      if (name !== 'w15:commentEx') return
      const paraId = attrs['w15:paraId']
      if (!paraId) return
      const parent = attrs['w15:paraIdParent']
      states.set(paraId, { ...(parent ? { parent } : {}), done: attrs['w15:done'] === '1' })
    },
    text() {},
    close() {},
  }
}

/** word/commentsExtended.xml: paraId -> its parent's paraId (a reply) and whether the thread is done. */
export async function readCommentStates(xml: string): Promise<Map<string, CommentState>> {
  return (await readXml(xml, statesReader)).states
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
