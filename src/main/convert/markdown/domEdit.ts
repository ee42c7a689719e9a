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
