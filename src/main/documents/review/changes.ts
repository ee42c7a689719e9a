import { AppError } from '../../../shared/errors'
import { Touched } from './paragraphs'
import { childElements, elements, remove, rename, unwrap } from './wordXml'

export interface TrackedChange {
  id: string
  kind:
    | 'insertion'
    | 'deletion'
    | 'formatting'
    | 'paragraph mark inserted'
    | 'paragraph mark deleted'
    | 'row inserted'
    | 'row deleted'
  author: string
  date: string
  text: string
  element: Element
}

const RUN_MARKS = ['w:ins', 'w:del', 'w:moveTo', 'w:moveFrom']
const PROPERTY_CHANGES = [
  'w:rPrChange',
  'w:pPrChange',
  'w:tblPrChange',
  'w:trPrChange',
  'w:tcPrChange',
  'w:sectPrChange',
]

const closest = (node: Node, name: string): Element | undefined => {
  for (let at: Node | null = node.parentNode; at; at = at.parentNode)
    if (at.nodeName === name) return at as Element
  return undefined
}

function kindOf(element: Element): TrackedChange['kind'] {
  const name = element.nodeName
  const inserted = name === 'w:ins' || name === 'w:moveTo'
  if (PROPERTY_CHANGES.includes(name)) return 'formatting'
  const parent = element.parentNode?.nodeName
  if (parent === 'w:trPr') return inserted ? 'row inserted' : 'row deleted'
  if (parent === 'w:rPr') return inserted ? 'paragraph mark inserted' : 'paragraph mark deleted'
  return inserted ? 'insertion' : 'deletion'
}

/** Every tracked change of the body, outermost first, in document order. */
export function trackedChanges(doc: Document): TrackedChange[] {
  const all = [...RUN_MARKS, ...PROPERTY_CHANGES].flatMap((tag) => elements(doc, tag))
  const order = elements(doc, '*')
  const index = new Map(order.map((e, i) => [e, i]))
  return all
    .sort((a, b) => (index.get(a) ?? 0) - (index.get(b) ?? 0))
    .map((element) => ({
      id: element.getAttribute('w:id') ?? '',
      kind: kindOf(element),
      author: element.getAttribute('w:author') || 'unknown',
      date: (element.getAttribute('w:date') ?? '').slice(0, 10),
      text: [...elements(element, 'w:t'), ...elements(element, 'w:delText')]
        .map((t) => t.textContent ?? '')
        .join(''),
      element,
    }))
}

/** A paragraph whose mark is gone: its content joins the next paragraph, which keeps its own properties. */
function mergeWithNext(p: Element): void {
  let next = p.nextSibling
  while (next && next.nodeType !== 1) next = next.nextSibling
  if (next?.nodeName !== 'w:p') return
  const nextElement = next as Element
  const anchor = childElements(nextElement).find((c) => c.nodeName !== 'w:pPr') ?? null
  for (const child of childElements(p))
    if (child.nodeName !== 'w:pPr') nextElement.insertBefore(child, anchor)
  remove(p)
}

/** The old properties a property change holds, put back in place of the current ones. */
function restoreProperties(change: Element): void {
  const props = change.parentNode as Element | null
  const old = childElements(change)[0]
  if (!props) return
  const kept = new Set(['w:rPr', 'w:sectPr', 'w:pPrChange', 'w:rPrChange', change.nodeName])
  for (const child of childElements(props))
    if (!(props.nodeName === 'w:pPr' && kept.has(child.nodeName)) && child !== change) remove(child)
  if (old) for (const child of childElements(old)) props.insertBefore(child, change)
  remove(change)
}

function apply(change: TrackedChange, accept: boolean): void {
  const { element } = change
  if (!element.parentNode) return
  switch (change.kind) {
    case 'formatting':
      if (accept) remove(element)
      else restoreProperties(element)
      return
    case 'row inserted':
    case 'row deleted': {
      const dropRow = accept === (change.kind === 'row deleted')
      const row = closest(element, 'w:tr')
      if (dropRow && row) remove(row)
      else remove(element)
      return
    }
    case 'paragraph mark inserted':
    case 'paragraph mark deleted': {
      const merge = accept === (change.kind === 'paragraph mark deleted')
      const p = closest(element, 'w:p')
      remove(element)
      if (merge && p) mergeWithNext(p)
      return
    }
    case 'insertion':
      if (accept) unwrap(element)
      else remove(element)
      return
    case 'deletion':
      if (accept) remove(element)
      else {
        for (const t of elements(element, 'w:delText')) rename(t, 'w:t')
        for (const code of elements(element, 'w:delInstrText')) rename(code, 'w:instrText')
        unwrap(element)
      }
  }
}

export interface Selection {
  author?: string | undefined
  ids?: string[] | undefined
}

export interface DecideOutcome {
  touched: Touched
  decided: Array<{ id: string; kind: string; author: string; text: string }>
}

/** Accepts or rejects the tracked changes chosen by author or id (all when neither is given). */
export function decideChanges(
  parts: Document | Document[],
  selection: Selection,
  accept: boolean,
): DecideOutcome {
  const all = (Array.isArray(parts) ? parts : [parts]).flatMap((doc) => trackedChanges(doc))
  const wanted = all.filter(
    (c) =>
      (selection.author === undefined || c.author.toLowerCase() === selection.author.toLowerCase()) &&
      (selection.ids === undefined || selection.ids.includes(c.id)),
  )
  const missing = (selection.ids ?? []).filter((id) => !all.some((c) => c.id === id))
  if (missing.length > 0)
    throw new AppError(
      'NOT_FOUND',
      `No tracked change with id ${missing.join(', ')}; the document's changes: ${all.map((c) => `#${c.id} ${c.kind} by ${c.author}`).join('; ') || 'none'}. Nothing was changed.`,
    )
  if (wanted.length === 0)
    throw new AppError(
      'NOT_FOUND',
      all.length === 0
        ? 'The document has no tracked changes; nothing was changed.'
        : `No tracked change${selection.author ? ` by ${selection.author}` : ''}; the authors are ${[...new Set(all.map((c) => c.author))].join(', ')}. Nothing was changed.`,
    )
  const touched = new Touched()
  for (const change of wanted) {
    const p = change.element.nodeName === 'w:p' ? change.element : closest(change.element, 'w:p')
    if (p) touched.note(p)
  }
  // Innermost first: a deletion inside someone's insertion is decided before the insertion around it.
  for (const change of [...wanted].reverse()) apply(change, accept)
  return {
    touched,
    decided: wanted.map((c) => ({ id: c.id, kind: c.kind, author: c.author, text: c.text })),
  }
}
