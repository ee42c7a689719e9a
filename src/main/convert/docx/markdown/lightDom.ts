// A small DOM for mammoth's HTML: what domino would build from it, with the operations the notes,
// table and Markdown steps use (the same tree edits, so text nodes stay split where the DOM's would).

export type LightNode = LightElement | LightText

interface Linked {
  parent: LightElement | null
  previous: LightNode | null
  next: LightNode | null
}

export class LightText implements Linked {
  readonly kind = 'text'
  parent: LightElement | null = null
  previous: LightNode | null = null
  next: LightNode | null = null
  constructor(public data: string) {}
}

export class LightElement implements Linked {
  readonly kind = 'element'
  parent: LightElement | null = null
  previous: LightNode | null = null
  next: LightNode | null = null
  first: LightNode | null = null
  last: LightNode | null = null
  readonly attributes = new Map<string, string>()
  /** The tag name as the DOM's `nodeName` spells it: upper case; `#document` and `#fragment` for those. */
  constructor(readonly name: string) {}

  attribute(name: string): string | null {
    return this.attributes.get(name) ?? null
  }

  append(node: LightNode): void {
    if (node instanceof LightElement && node.name === '#fragment') {
      for (let child = node.first; child; child = node.first) this.append(child)
      return
    }
    detach(node)
    node.parent = this
    node.previous = this.last
    if (this.last) this.last.next = node
    else this.first = node
    this.last = node
  }
}

export function detach(node: LightNode): void {
  const parent = node.parent
  if (!parent) return
  if (node.previous) node.previous.next = node.next
  else parent.first = node.next
  if (node.next) node.next.previous = node.previous
  else parent.last = node.previous
  node.parent = null
  node.previous = null
  node.next = null
}

/** Puts `node` (a fragment's children, when it is one) where `old` is; nothing when `old` has no parent. */
export function replace(old: LightNode, node: LightNode): void {
  const parent = old.parent
  if (!parent) return
  const nodes = node instanceof LightElement && node.name === '#fragment' ? children(node) : [node]
  for (const added of nodes) {
    detach(added)
    added.parent = parent
    added.previous = old.previous
    added.next = old
    if (old.previous) old.previous.next = added
    else parent.first = added
    old.previous = added
  }
  detach(old)
}

export function moveChildren(from: LightElement, to: LightElement): void {
  for (let child = from.first; child; child = from.first) to.append(child)
}

export function children(node: LightElement): LightNode[] {
  const list: LightNode[] = []
  for (let child = node.first; child; child = child.next) list.push(child)
  return list
}

export function elementChildren(node: LightElement): LightElement[] {
  return children(node).filter((child): child is LightElement => child instanceof LightElement)
}

export function nextElement(node: LightNode): LightElement | null {
  let next = node.next
  while (next && !(next instanceof LightElement)) next = next.next
  return next
}

/** The node after `node` in document order within `root` (its subtree walked first), or null at the end. */
function following(node: LightNode, root: LightElement): LightNode | null {
  if (node instanceof LightElement && node.first) return node.first
  let at: LightNode | null = node
  while (at && at !== root && !at.next) at = at.parent
  return !at || at === root ? null : at.next
}

export function textContent(node: LightNode): string {
  if (node instanceof LightText) return node.data
  let text = ''
  for (let at = node.first ? node.first : null; at; at = following(at, node))
    if (at instanceof LightText) text += at.data
  return text
}

/** The elements under `root` that `wanted` picks, in document order (root excluded); no recursion. */
export function descendants(root: LightElement, wanted: (element: LightElement) => boolean): LightElement[] {
  const found: LightElement[] = []
  for (let at = root.first; at; at = following(at, root))
    if (at instanceof LightElement && wanted(at)) found.push(at)
  return found
}

/** The `tr` elements under a table in document order, as domino's `rows` (nested tables' rows too). */
export function rows(table: LightElement): LightElement[] {
  return descendants(table, (element) => element.name === 'TR')
}

/** The `td` and `th` elements under a row, as domino's `cells` (a nested table's too). */
export function cells(row: LightElement): LightElement[] {
  return descendants(row, (cell) => cell.name === 'TD' || cell.name === 'TH')
}
