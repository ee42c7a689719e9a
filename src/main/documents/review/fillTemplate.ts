import { AppError } from '../../../shared/errors'
import { bodyParagraphs, paragraphText, Touched } from './paragraphs'
import { replaceRange } from './textEdits'
import { childElements, elements, firstChild, make, remove, setText, W14_NS } from './wordXml'

export type Scalar = string | number | boolean
export type TemplateValues = Record<string, Scalar | Array<Record<string, Scalar>>>

const PLACEHOLDER = /\{\{\s*([\p{L}\p{N}_.-]+)\s*\}\}/gu
const CHECKED = '\u2612'
const UNCHECKED = '\u2610'

const show = (value: Scalar) => (typeof value === 'boolean' ? (value ? CHECKED : UNCHECKED) : String(value))

export interface FillOutcome {
  touched: Touched
  placeholders: Array<{ name: string; count: number }>
  controls: Array<{ tag: string; type: string; value: string }>
  rows: Array<{ name: string; rows: number }>
  unused: string[]
}

/** Placeholders of a paragraph replaced from `lookup`; names without a value are collected, not replaced. */
function fillParagraph(
  p: Element,
  lookup: (name: string) => Scalar | undefined,
  counts: Map<string, number>,
  missing: Set<string>,
  touched: Touched,
): void {
  const { text } = paragraphText(p)
  const found = [...text.matchAll(PLACEHOLDER)]
  if (found.length === 0) return
  touched.note(p)
  for (const match of found.reverse()) {
    const name = match[1] ?? ''
    const value = lookup(name)
    if (value === undefined) {
      missing.add(name)
      continue
    }
    counts.set(name, (counts.get(name) ?? 0) + 1)
    replaceRange({ p, from: match.index, to: match.index + match[0].length }, show(value))
  }
}

const tagOf = (sdt: Element): string | undefined => {
  const props = firstChild(sdt, 'w:sdtPr')
  if (!props) return undefined
  return (
    firstChild(props, 'w:tag')?.getAttribute('w:val') ||
    firstChild(props, 'w:alias')?.getAttribute('w:val') ||
    undefined
  )
}

/** A content control set to `value`: check box, date, list or text; its placeholder look removed. */
function fillControl(sdt: Element, value: Scalar, touched: Touched): string {
  const doc = sdt.ownerDocument
  const props = firstChild(sdt, 'w:sdtPr')
  const content = firstChild(sdt, 'w:sdtContent')
  if (!props || !content) return 'unknown'
  for (const shown of elements(props, 'w:showingPlcHdr')) remove(shown)
  const checkbox = firstChild(props, 'w14:checkbox')
  let type = 'text'
  let textValue = show(value)
  if (checkbox) {
    type = 'checkbox'
    const on = value === true || /^(1|true|yes|x|on|checked)$/i.test(String(value))
    let checked = firstChild(checkbox, 'w14:checked')
    if (!checked) {
      checked = make(doc, 'w14:checked')
      checkbox.insertBefore(checked, checkbox.firstChild)
    }
    checked.setAttributeNS(W14_NS, 'w14:val', on ? '1' : '0')
    textValue = on ? CHECKED : UNCHECKED
  } else if (firstChild(props, 'w:date')) {
    type = 'date'
    const date = firstChild(props, 'w:date') as Element
    const iso = /^\d{4}-\d{2}-\d{2}/.exec(String(value))?.[0]
    if (iso) date.setAttributeNS(date.namespaceURI, 'w:fullDate', `${iso}T00:00:00Z`)
  } else if (firstChild(props, 'w:dropDownList') || firstChild(props, 'w:comboBox')) type = 'list'
  const paragraphs = childElements(content).filter((c) => c.nodeName === 'w:p')
  const holder = paragraphs[0] ?? content
  for (const extra of paragraphs.slice(1)) remove(extra)
  const runs = elements(holder, 'w:r')
  let run = runs[0]
  for (const other of runs.slice(1)) remove(other)
  if (!run) {
    run = make(doc, 'w:r')
    holder.appendChild(run)
  }
  for (const child of childElements(run)) if (child.nodeName !== 'w:rPr') remove(child)
  const style = elements(run, 'w:rStyle')[0]
  if (style?.getAttribute('w:val') === 'PlaceholderText') remove(style)
  const t = make(doc, 'w:t')
  setText(t, textValue)
  run.appendChild(t)
  for (let node: Node | null = run; node; node = node.parentNode)
    if (node.nodeName === 'w:p') {
      touched.note(node as Element)
      break
    }
  return type
}

/** Table rows (or a repeating content control's rows) cloned once per item of a list value. */
function repeatRows(
  doc: Document,
  values: TemplateValues,
  touched: Touched,
  missing: Set<string>,
  counts: Map<string, number>,
): FillOutcome['rows'] {
  const rows: FillOutcome['rows'] = []
  const lists = Object.entries(values).filter((entry): entry is [string, Array<Record<string, Scalar>>] =>
    Array.isArray(entry[1]),
  )
  for (const [name, items] of lists) {
    let made = 0
    // Repeating sections: a content control tagged with the list's name around one or more rows.
    for (const sdt of elements(doc, 'w:sdt').filter((s) => tagOf(s) === name)) {
      const content = firstChild(sdt, 'w:sdtContent')
      const units = content ? childElements(content) : []
      const template = units[0]
      if (!content || !template || (!elements(template, 'w:tr').length && template.nodeName !== 'w:tr'))
        continue
      for (const unit of units) remove(unit)
      for (const item of items) {
        const copy = template.cloneNode(true) as Element
        content.appendChild(copy)
        fillUnit(copy, name, item, touched, missing, counts)
        made += 1
      }
    }
    // Rows holding {{name.field}}: the row is the template.
    const prefix = `${name}.`
    for (const row of elements(doc, 'w:tr')) {
      const names = [
        ...elements(row, 'w:p')
          .map((p) => paragraphText(p).text)
          .join('\n')
          .matchAll(PLACEHOLDER),
      ].map((m) => m[1] ?? '')
      if (!names.some((n) => n.startsWith(prefix)) || !row.parentNode) continue
      for (const item of items) {
        const copy = row.cloneNode(true) as Element
        row.parentNode.insertBefore(copy, row)
        fillUnit(copy, name, item, touched, missing, counts)
        made += 1
      }
      remove(row)
    }
    rows.push({ name, rows: made })
  }
  return rows
}

function fillUnit(
  unit: Element,
  list: string,
  item: Record<string, Scalar>,
  touched: Touched,
  missing: Set<string>,
  counts: Map<string, number>,
): void {
  const lookup = (name: string) => {
    const field = name.startsWith(`${list}.`) ? name.slice(list.length + 1) : name
    return Object.hasOwn(item, field) ? item[field] : undefined
  }
  for (const sdt of elements(unit, 'w:sdt')) {
    const tag = tagOf(sdt)
    const value = tag !== undefined ? lookup(tag) : undefined
    if (value !== undefined) fillControl(sdt, value, touched)
  }
  for (const p of elements(unit, 'w:p')) fillParagraph(p, lookup, counts, missing, touched)
}

/**
 * Fills `{{name}}` placeholders (split across runs or not; the first run's formatting kept), content
 * controls by tag or title, and rows repeated per list item. A placeholder without a value is an error
 * naming every such placeholder.
 */
export function fillTemplate(doc: Document, values: TemplateValues): FillOutcome {
  const touched = new Touched()
  const counts = new Map<string, number>()
  const missing = new Set<string>()
  const used = new Set<string>()
  const rows = repeatRows(doc, values, touched, missing, counts)
  for (const row of rows) if (row.rows > 0) used.add(row.name)
  const controls: FillOutcome['controls'] = []
  for (const sdt of elements(doc, 'w:sdt')) {
    const tag = tagOf(sdt)
    const value = tag !== undefined ? values[tag] : undefined
    if (tag === undefined || value === undefined || Array.isArray(value) || !sdt.parentNode) continue
    controls.push({ tag, type: fillControl(sdt, value, touched), value: show(value) })
    used.add(tag)
  }
  const scalar = (name: string) => {
    const value = values[name]
    return value === undefined || Array.isArray(value) ? undefined : value
  }
  for (const p of bodyParagraphs(doc)) fillParagraph(p, scalar, counts, missing, touched)
  if (missing.size > 0)
    throw new AppError(
      'VALIDATION_FAILED',
      `No value for the placeholder${missing.size > 1 ? 's' : ''} ${[...missing].map((m) => `{{${m}}}`).join(', ')}; pass them in values. Nothing was written.`,
    )
  for (const name of counts.keys()) used.add(name.split('.')[0] ?? name)
  return {
    touched,
    placeholders: [...counts].map(([name, count]) => ({ name, count })),
    controls,
    rows,
    unused: Object.keys(values).filter((key) => !used.has(key)),
  }
}
