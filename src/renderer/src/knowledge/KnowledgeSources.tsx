import type { AgentStep } from '../../../shared/ipc'
import { useNavigation } from '../app/navigationStore'
import { type PassageRef, useWorkspaceNav } from '../workspace/workspaceNav'
import './knowledge.css'

/** One line of Sources: a place in a file and the citation numbers that point at it. */
export interface Source extends PassageRef {
  numbers: number[]
}

function isPassage(value: unknown): value is PassageRef & { n?: unknown } {
  const item = value as Partial<PassageRef> | null
  return (
    typeof item?.path === 'string' &&
    typeof item.start === 'number' &&
    typeof item.end === 'number' &&
    typeof item.location === 'string'
  )
}

const CITATION = /\[(\d{1,3})\]/g

/** The numbers the answer cites as [n], in order of first use. */
export function citedNumbers(text: string): number[] {
  return [...new Set([...text.matchAll(CITATION)].map((m) => Number(m[1])))]
}

/**
 * The sources an answer stands on. Numbers are those the model saw (the latest search's `n` wins);
 * when the answer cites some, only those are listed. Passages of the same file and place share one
 * line, so a page found four times is listed once.
 */
export function sourcesOf(steps: readonly AgentStep[], text = ''): Source[] {
  const byNumber = new Map<number, PassageRef>()
  for (const step of steps) {
    if (step.method !== 'knowledge.search' || step.status !== 'ok') continue
    const passages = (step.result as { passages?: unknown } | undefined)?.passages
    if (!Array.isArray(passages)) continue
    passages.forEach((passage, index) => {
      if (!isPassage(passage)) return
      const n = typeof passage.n === 'number' ? passage.n : index + 1
      byNumber.set(n, {
        path: passage.path,
        start: passage.start,
        end: passage.end,
        location: passage.location,
      })
    })
  }
  const cited = citedNumbers(text).filter((n) => byNumber.has(n))
  const numbers = cited.length > 0 ? cited : [...byNumber.keys()].sort((a, b) => a - b)
  const out: Source[] = []
  for (const n of numbers) {
    const passage = byNumber.get(n)
    if (!passage) continue
    const same = out.find((s) => s.path === passage.path && s.location === passage.location)
    if (same) same.numbers.push(n)
    else out.push({ ...passage, numbers: [n] })
  }
  return out
}

/** The element id a citation [n] of one answer points at. */
export const sourceId = (messageId: string, n: number) => `source-${messageId}-${n}`

/** The answer's text with each [n] that has a source made a link to it. */
export function linkCitations(text: string, messageId: string, sources: readonly Source[]): string {
  const known = new Set(sources.flatMap((s) => s.numbers))
  if (known.size === 0) return text
  return text.replace(/\[(\d{1,3})\](?![(:])/g, (whole, digits: string) =>
    // Balanced brackets are allowed in link text: `[[1]](#…)` reads "[1]" (escaped ones would be TeX).
    known.has(Number(digits)) ? `[[${digits}]](#${sourceId(messageId, Number(digits))})` : whole,
  )
}

/** Numbered sources under an answer that searched the workspace; a click opens the passage in the Workspace page. */
export function KnowledgeSources({ sources, messageId }: { sources: readonly Source[]; messageId: string }) {
  const go = useNavigation((state) => state.go)
  const showPassage = useWorkspaceNav((state) => state.showPassage)
  if (sources.length === 0) return null
  return (
    <nav className="knowledge-sources" aria-label="Sources">
      <h2>Sources</h2>
      <ol>
        {sources.map((source) => (
          <li key={`${source.path}#${source.start}`}>
            <button
              type="button"
              id={sourceId(messageId, source.numbers[0] ?? 0)}
              onClick={() => {
                showPassage(source)
                go('workspace')
              }}
            >
              {source.numbers.map((n, i) => (
                <span key={n} className="source-number" {...(i > 0 ? { id: sourceId(messageId, n) } : {})}>
                  [{n}]
                </span>
              ))}{' '}
              {source.path}
              <span className="muted"> — {source.location}</span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  )
}
