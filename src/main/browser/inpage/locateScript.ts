export interface LocateArgs {
  id: string
  path: string | null
  frames: string[]
  /** The element's text when it was read: an XPath match must still show it. */
  text: string
  tag: string | null
}

/**
 * Runs in the page (self-contained): the element registered under `id`, or, when the page replaced
 * it, the element at the same XPath if it still has the same tag and text (then it takes over the id).
 */
export function locateElement(args: LocateArgs): Element | null {
  type Registry = { ids: WeakMap<Element, string>; refs: Map<string, WeakRef<Element>>; next: number }
  const KEY = Symbol.for('bureau.elements')
  let top: Window = window
  try {
    if ((window.top as unknown as Record<symbol, unknown>)[KEY]) top = window.top as Window
  } catch {
    top = window
  }
  const registry = (top as unknown as Record<symbol, Registry | undefined>)[KEY]
  const known = registry?.refs.get(args.id)?.deref()
  if (known?.isConnected) return known
  if (!args.path || !registry) return null
  const squash = (text: string) => text.replace(/\s+/g, ' ').trim()
  let doc: Document | null = top.document
  for (const framePath of args.frames) {
    const frame = doc?.evaluate(framePath, doc, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null)
      .singleNodeValue as HTMLIFrameElement | null
    try {
      doc = frame?.contentDocument ?? null
    } catch {
      doc = null
    }
  }
  if (!doc) return null
  const found = doc.evaluate(args.path, doc, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null)
    .singleNodeValue as Element | null
  if (!found || (args.tag && found.localName !== args.tag)) return null
  if (args.text) {
    const shown = squash(
      `${found.textContent ?? ''} ${found.getAttribute('aria-label') ?? ''} ${(found as HTMLInputElement).value ?? ''}`,
    )
    if (!shown.includes(args.text.replace(/…$/, ''))) return null
  }
  if (registry.ids.has(found) && registry.ids.get(found) !== args.id) return null
  registry.ids.set(found, args.id)
  registry.refs.set(args.id, new WeakRef(found))
  return found
}
