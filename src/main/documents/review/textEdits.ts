import { AppError } from '../../../shared/errors'
import { type FindOptions, findAll, finder, isolate, type Match, Touched } from './paragraphs'
import {
  childElements,
  elements,
  firstChild,
  insertAfter,
  make,
  nextId,
  rename,
  setText,
  wordDate,
} from './wordXml'

/** Runs that sit next to each other under one parent, so one w:del can wrap them. */
function siblingGroups(runs: Element[]): Element[][] {
  const groups: Element[][] = []
  for (const run of runs) {
    const last = groups[groups.length - 1]
    const previous = last?.[last.length - 1]
    let sibling = previous?.nextSibling
    while (sibling && sibling.nodeType !== 1) sibling = sibling.nextSibling
    if (last && sibling === run) last.push(run)
    else groups.push([run])
  }
  return groups
}

/** A run with `from`'s formatting holding `value`. */
function runLike(from: Element, value: string): Element {
  const doc = from.ownerDocument
  const run = make(doc, 'w:r')
  const props = firstChild(from, 'w:rPr')
  if (props) run.appendChild(props.cloneNode(true))
  const t = make(doc, 'w:t')
  setText(t, value)
  run.appendChild(t)
  return run
}

/** The matches in each part, in the parts' order. */
const findIn = (docs: Document[], pattern: RegExp): Match[] => docs.flatMap((doc) => findAll(doc, pattern))

function selected(matches: Match[], occurrence: number | undefined, find: string): Match[] {
  if (matches.length === 0)
    throw new AppError(
      'NOT_FOUND',
      `"${find}" is not in the document's text (deleted text does not count); nothing was changed.`,
    )
  if (occurrence === undefined) return matches
  const pick = matches[occurrence - 1]
  if (!pick)
    throw new AppError(
      'VALIDATION_FAILED',
      `"${find}" occurs ${matches.length} time(s); occurrence ${occurrence} is past the end.`,
    )
  return [pick]
}

export interface EditOutcome {
  touched: Touched
  matches: number
  changeIds: string[]
}

/**
 * `find` replaced by `replace` as tracked changes: the found runs wrapped in w:del (their text as
 * w:delText), the new text in a w:ins run that keeps the first found run's formatting.
 */
export function suggestEdit(
  parts: Document | Document[],
  args: { find: string; replace: string; author: string; occurrence?: number | undefined } & FindOptions,
): EditOutcome {
  const docs = Array.isArray(parts) ? parts : [parts]
  const matches = selected(findIn(docs, finder(args.find, args)), args.occurrence, args.find)
  const touched = new Touched()
  const changeIds: string[] = []
  // Review marks share one id space across the body, headers, footers and notes.
  let id = nextId(...docs)
  const date = wordDate()
  const mark = (name: string) => {
    const element = make(docOf, name, { 'w:id': String(id), 'w:author': args.author, 'w:date': date })
    changeIds.push(String(id))
    id += 1
    return element
  }
  // Last match first: splitting runs on the right leaves earlier offsets as they were.
  let docOf: Document = docs[0] as Document
  for (const match of [...matches].reverse()) {
    docOf = match.p.ownerDocument
    touched.note(match.p)
    const runs = isolate(match.p, match.from, match.to)
    const first = runs[0]
    if (!first) continue
    let lastDel: Element | undefined
    for (const group of siblingGroups(runs)) {
      const del = mark('w:del')
      group[0]?.parentNode?.insertBefore(del, group[0])
      for (const run of group) {
        del.appendChild(run)
        for (const t of elements(run, 'w:t')) rename(t, 'w:delText')
        for (const code of elements(run, 'w:instrText')) rename(code, 'w:delInstrText')
      }
      lastDel = del
    }
    if (args.replace && lastDel) {
      const ins = mark('w:ins')
      ins.appendChild(runLike(first, args.replace))
      insertAfter(ins, lastDel)
    }
  }
  return { touched, matches: matches.length, changeIds }
}

/** `find` replaced by `replace` in place (no tracked change), the first found run's formatting kept. */
export function replaceText(
  parts: Document | Document[],
  args: { find: string; replace: string; occurrence?: number | undefined } & FindOptions,
): EditOutcome {
  const docs = Array.isArray(parts) ? parts : [parts]
  const matches = selected(findIn(docs, finder(args.find, args)), args.occurrence, args.find)
  const touched = new Touched()
  for (const match of [...matches].reverse()) {
    touched.note(match.p)
    replaceRange(match, args.replace)
  }
  return { touched, matches: matches.length, changeIds: [] }
}

/** The text [from, to) of a paragraph replaced by `value`, in the first run's formatting. */
export function replaceRange(match: Match, value: string): void {
  const runs = isolate(match.p, match.from, match.to)
  const [first, ...rest] = runs
  if (!first) return
  const texts = childElements(first).filter((c) => c.nodeName !== 'w:rPr')
  const t = texts.find((c) => c.nodeName === 'w:t')
  for (const other of texts) if (other !== t) first.removeChild(other)
  if (t) setText(t, value)
  else first.appendChild(runLike(first, value).lastChild as Node)
  for (const run of rest) run.parentNode?.removeChild(run)
}
