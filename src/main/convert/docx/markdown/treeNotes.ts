import { commentMarker, noteId, noteMarker } from '../noteMarkers'
import {
  descendants,
  detach,
  elementChildren,
  LightElement,
  LightText,
  moveChildren,
  nextElement,
  replace,
  textContent,
} from './lightDom'
import { treeToMarkdown } from './treeToMarkdown'

// notes.ts's steps on the light tree, edit for edit: footnotes and endnotes become `[^n]` lines, the
// comment list a list of comments, both taken out of the body.

export interface TreeNotes {
  footnotes: string[]
  comments: string[]
}

function withPrefix(root: LightElement, tag: string, attribute: string, prefixes: string[]): LightElement[] {
  return descendants(root, (element) => {
    if (element.name !== tag) return false
    const value = element.attribute(attribute)
    return value !== null && prefixes.some((prefix) => value.startsWith(prefix))
  })
}

/** The `sup` around a reference, or the reference itself. */
const holderOf = (link: LightElement) => (link.parent?.name === 'SUP' ? link.parent : link)

/** An element's parent when it is an element (the DOM's `parentElement`; the document is not one). */
const parentElement = (node: LightElement) => (node.parent?.name === '#document' ? null : node.parent)

function removeEmptyList(list: LightElement | null): void {
  if (list && elementChildren(list).length === 0) detach(list)
}

const oneLine = (root: LightElement) => treeToMarkdown(root).replace(/\n+/g, ' ').trim()

function extractFootnotes(document: LightElement): string[] {
  const footnotes: string[] = []
  for (const link of withPrefix(document, 'A', 'href', ['#footnote-', '#endnote-'])) {
    const id = noteId(link.attribute('href') ?? '')
    if (id) replace(holderOf(link), new LightText(noteMarker(id)))
  }
  for (const item of withPrefix(document, 'LI', 'id', ['footnote-', 'endnote-'])) {
    const id = noteId(`#${item.attribute('id') ?? ''}`)
    for (const back of withPrefix(item, 'A', 'href', ['#footnote-ref-', '#endnote-ref-'])) detach(back)
    const text = oneLine(item)
    if (id) footnotes.push(`[^${id}]: ${text}`)
    const list = parentElement(item)
    detach(item)
    removeEmptyList(list)
  }
  return footnotes
}

function extractComments(document: LightElement): string[] {
  const comments: string[] = []
  for (const reference of withPrefix(document, 'A', 'href', ['#comment-'])) {
    if (!/^#comment-\d+$/.test(reference.attribute('href') ?? '')) continue
    const label = textContent(reference).replace(/^\[|\]$/g, '')
    replace(holderOf(reference), new LightText(commentMarker(label)))
  }
  for (const term of withPrefix(document, 'DT', 'id', ['comment-'])) {
    const body = nextElement(term)
    const label = textContent(term)
      .replace(/^Comment\s*/, '')
      .replace(/^\[|\]$/g, '')
    if (body?.name === 'DD') {
      for (const back of withPrefix(body, 'A', 'href', ['#comment-ref-'])) detach(back)
      const wrapper = new LightElement('DIV')
      moveChildren(body, wrapper)
      comments.push(`* **[${label}]** ${oneLine(wrapper)}`)
      detach(body)
    }
    const list = parentElement(term)
    detach(term)
    removeEmptyList(list)
  }
  return comments
}

/** What `extractNotes` does to the DOM, on the light tree. */
export function extractTreeNotes(document: LightElement): TreeNotes {
  const footnotes = extractFootnotes(document)
  const comments = extractComments(document)
  return { footnotes, comments }
}
