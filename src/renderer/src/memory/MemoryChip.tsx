import { useId, useState } from 'react'
import type { AgentStep } from '../../../shared/ipc'
import { MEMORY_RECALL_STEP, UsedMemory } from '../../../shared/memory'
import { useNavigation } from '../app/navigationStore'
import './memory.css'

/** The memories a run was given (its recall step), or none. */
export function memoriesOf(steps: readonly AgentStep[]): UsedMemory[] {
  const step = steps.find((s) => s.method === MEMORY_RECALL_STEP && s.status === 'ok')
  const listed = (step?.result as { memories?: unknown } | undefined)?.memories
  if (!Array.isArray(listed)) return []
  return listed.filter((m): m is UsedMemory => UsedMemory.safeParse(m).success)
}

/** "Used 2 memories" under an answer; opens the list, with a way to Settings → Memory. */
export function MemoryChip({ steps }: { steps: readonly AgentStep[] }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  const go = useNavigation((state) => state.go)
  const used = memoriesOf(steps)
  if (used.length === 0) return null
  return (
    <div className="memory-used">
      <button
        type="button"
        className="memory-chip"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        Used {used.length} {used.length === 1 ? 'memory' : 'memories'}
      </button>
      {open && (
        <div id={id}>
          <ul className="memory-chip-list" aria-label="Memories used for this answer">
            {used.map((memory) => (
              <li key={memory.id}>{memory.text}</li>
            ))}
          </ul>
          <button
            type="button"
            className="button small secondary"
            onClick={() => {
              go('settings')
              setTimeout(() => document.getElementById('memory')?.scrollIntoView({ block: 'start' }), 50)
            }}
          >
            Manage memories
          </button>
        </div>
      )}
    </div>
  )
}
