// domino implements the classic DOM only (no append/replaceWith on every node), so edits go through these.

export function removeNode(node: Node): void {
  node.parentNode?.removeChild(node)
}

export function replaceNode(old: Node, replacement: Node): void {
  old.parentNode?.replaceChild(replacement, old)
}

export function moveChildren(from: Node, to: Node): void {
  while (from.firstChild) to.appendChild(from.firstChild)
}

function nameOf(element: Element): string {
  return element.localName.toLowerCase()
}

/**
 * The elements under `root` that `wanted` picks, in document order. One walk with firstChild and
 * nextSibling: domino's selector engine costs several times more per element, and a page with
 * hundreds of table cells asked it twice per cell.
 */
export function descendants(root: Node, wanted: (element: Element, name: string) => boolean): Element[] {
  const found: Element[] = []
  let node: Node | null = root.firstChild
  while (node && node !== root) {
    if (node.nodeType === 1 && wanted(node as Element, nameOf(node as Element))) found.push(node as Element)
    if (node.firstChild) {
      node = node.firstChild
      continue
    }
    while (node && node !== root && !node.nextSibling) node = node.parentNode
    if (!node || node === root) break
    node = node.nextSibling
  }
  return found
}
