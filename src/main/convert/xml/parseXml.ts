import type { ChildNode, Document, Element } from 'domhandler'
import { parseDocument } from 'htmlparser2'

export type { Element }

export function parseXml(xml: string): Document {
  return parseDocument(xml, { xmlMode: true, decodeEntities: true })
}

/** The element name without its namespace prefix (`dc:title` -> `title`). */
export function localName(element: Element): string {
  const colon = element.name.indexOf(':')
  return colon === -1 ? element.name : element.name.slice(colon + 1)
}

export function childElements(node: Element | Document): Element[] {
  return node.children.filter((child): child is Element => child.type === 'tag')
}

/** All descendants with this local name, in document order. */
export function descendants(node: Element | Document, name: string): Element[] {
  const found: Element[] = []
  const visit = (current: Element | Document) => {
    for (const child of childElements(current)) {
      if (localName(child) === name) found.push(child)
      visit(child)
    }
  }
  visit(node)
  return found
}

export function firstDescendant(node: Element | Document, name: string): Element | undefined {
  for (const child of childElements(node)) {
    if (localName(child) === name) return child
    const deeper = firstDescendant(child, name)
    if (deeper) return deeper
  }
  return undefined
}

export function textOf(node: ChildNode | Document | undefined): string {
  if (!node) return ''
  if (node.type === 'text' || node.type === 'cdata') {
    return node.type === 'text' ? node.data : node.children.map(textOf).join('')
  }
  if ('children' in node) return node.children.map(textOf).join('')
  return ''
}

/** An attribute by local name, whatever prefix the document used. */
export function attribute(element: Element, name: string): string | undefined {
  for (const [key, value] of Object.entries(element.attribs)) {
    if (key === name || key.endsWith(`:${name}`)) return value
  }
  return undefined
}
