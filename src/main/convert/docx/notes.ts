import { descendants, moveChildren, removeNode, replaceNode } from '../markdown/domEdit'
import { htmlToMarkdown } from '../markdown/htmlToMarkdown'
import { commentMarker, noteId, noteMarker } from './noteMarkers'

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
    replaceNode(holder, document.createTextNode(noteMarker(id)))
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
    replaceNode(holder, document.createTextNode(commentMarker(label)))
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
