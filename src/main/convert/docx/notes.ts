import { descendants, moveChildren, removeNode, replaceNode } from '../markdown/domEdit'
import { htmlToMarkdown } from '../markdown/htmlToMarkdown'

/** Placeholders survive turndown's escaping of `[`/`]`; they become `[^n]` afterwards. */
const marker = (id: string) => `\u27e6fn:${id}\u27e7`
const markerPattern = /\u27e6fn:([^\u27e7]+)\u27e7/g

export interface ExtractedNotes {
  footnotes: string[]
  comments: string[]
}

/** `tag[attribute^="prefix"]` for each prefix, as one walk: domino's selector engine costs far more. */
function withPrefix(root: Node, tag: string, attribute: string, prefixes: string[]): Element[] {
  return descendants(root, (element, name) => {
    if (name !== tag) return false
    const value = element.getAttribute(attribute)
    return value !== null && prefixes.some((prefix) => value.startsWith(prefix))
  })
}

function noteId(href: string): string | undefined {
  const match = /^#(footnote|endnote)-(\d+)$/.exec(href)
  if (!match) return undefined
  return match[1] === 'endnote' ? `e${match[2]}` : match[2]
}

/**
 * Turns mammoth's footnote/endnote lists into GFM footnotes (`[^1]`) and its comment list
 * (`<dl>` of `comment-N`) into lines for a Comments section; both are removed from the body.
 */
export function extractNotes(document: Document): ExtractedNotes {
  const footnotes: string[] = []
  const comments: string[] = []
  for (const link of withPrefix(document, 'a', 'href', ['#footnote-', '#endnote-'])) {
    const id = noteId(link.getAttribute('href') ?? '')
    if (!id) continue
    const holder = link.parentElement?.tagName === 'SUP' ? link.parentElement : link
    replaceNode(holder, document.createTextNode(marker(id)))
  }
  for (const item of withPrefix(document, 'li', 'id', ['footnote-', 'endnote-'])) {
    const id = noteId(`#${item.id}`)
    for (const back of withPrefix(item, 'a', 'href', ['#footnote-ref-', '#endnote-ref-'])) removeNode(back)
    const text = htmlToMarkdown(item, { dataImages: 'keep' }).replace(/\n+/g, ' ').trim()
    if (id) footnotes.push(`[^${id}]: ${text}`)
    const list = item.parentElement
    removeNode(item)
    if (list && list.children.length === 0) removeNode(list)
  }
  for (const reference of withPrefix(document, 'a', 'href', ['#comment-'])) {
    if (!/^#comment-\d+$/.test(reference.getAttribute('href') ?? '')) continue
    const holder = reference.parentElement?.tagName === 'SUP' ? reference.parentElement : reference
    const label = (reference.textContent ?? '').replace(/^\[|\]$/g, '')
    replaceNode(holder, document.createTextNode(`\u27e6c:${label}\u27e7`))
  }
  for (const term of withPrefix(document, 'dt', 'id', ['comment-'])) {
    const body = term.nextElementSibling
    const label = (term.textContent ?? '').replace(/^Comment\s*/, '').replace(/^\[|\]$/g, '')
    if (body?.tagName === 'DD') {
      for (const back of withPrefix(body, 'a', 'href', ['#comment-ref-'])) removeNode(back)
      const wrapper = document.createElement('div')
      moveChildren(body, wrapper)
      comments.push(
        `* **[${label}]** ${htmlToMarkdown(wrapper, { dataImages: 'keep' }).replace(/\n+/g, ' ').trim()}`,
      )
      removeNode(body)
    }
    const list = term.parentElement
    removeNode(term)
    if (list && list.children.length === 0) removeNode(list)
  }
  return { footnotes, comments }
}

export function restoreNoteMarkers(markdown: string): string {
  return markdown.replace(markerPattern, '[^$1]').replace(/\u27e6c:([^\u27e7]+)\u27e7/g, '[comment $1]')
}
