import type { AgentStep } from '../../../shared/ipc'
import { useNavigation } from '../app/navigationStore'
import { type PassageRef, useWorkspaceNav } from '../workspace/workspaceNav'
import './knowledge.css'

function isPassage(value: unknown): value is PassageRef {
  const item = value as Partial<PassageRef> | null
  return (
    typeof item?.path === 'string' &&
    typeof item.start === 'number' &&
    typeof item.end === 'number' &&
    typeof item.location === 'string'
  )
}

/** The passages the answer's `knowledge search` calls returned, in the order the model saw them. */
export function sourcesOf(steps: readonly AgentStep[]): PassageRef[] {
  const seen = new Set<string>()
  const out: PassageRef[] = []
  for (const step of steps) {
    if (step.method !== 'knowledge.search' || step.status !== 'ok') continue
    const passages = (step.result as { passages?: unknown } | undefined)?.passages
    if (!Array.isArray(passages)) continue
    for (const passage of passages) {
      if (!isPassage(passage)) continue
      const key = `${passage.path}#${passage.start}`
      if (seen.has(key)) continue
      seen.add(key)
      out.push({ path: passage.path, start: passage.start, end: passage.end, location: passage.location })
    }
  }
  return out
}

/** Numbered sources under an answer that searched the workspace; a click opens the passage in the Workspace page. */
export function KnowledgeSources({ steps }: { steps: readonly AgentStep[] }) {
  const go = useNavigation((state) => state.go)
  const showPassage = useWorkspaceNav((state) => state.showPassage)
  const sources = sourcesOf(steps)
  if (sources.length === 0) return null
  return (
    <nav className="knowledge-sources" aria-label="Sources">
      <h2>Sources</h2>
      <ol>
        {sources.map((source, index) => (
          <li key={`${source.path}#${source.start}`}>
            <button
              type="button"
              onClick={() => {
                showPassage(source)
                go('workspace')
              }}
            >
              <span className="source-number">[{index + 1}]</span> {source.path}
              <span className="muted"> — {source.location}</span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  )
}
