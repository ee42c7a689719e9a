import { type KeyboardEvent, useRef, useState } from 'react'
import type { DocumentExportFormat } from '../../../shared/ipc'
import { bureau } from '../ipc/bureauClient'

type State =
  | { kind: 'idle' }
  | { kind: 'busy'; format: DocumentExportFormat }
  | { kind: 'done'; path: string; notes: string }
  | { kind: 'failed'; text: string }

const LABELS: Record<DocumentExportFormat, string> = { docx: 'Word (.docx)', pdf: 'PDF' }

/** "Export as Word / PDF": writes the conversation to /exports in the workspace and says where. */
export function ExportDocumentMenu({ conversationId }: { conversationId: string }) {
  const [state, setState] = useState<State>({ kind: 'idle' })
  const details = useRef<HTMLDetailsElement>(null)
  const close = () => {
    if (details.current?.open) details.current.open = false
    details.current?.querySelector('summary')?.focus()
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && details.current?.open) {
      event.stopPropagation()
      close()
    }
  }
  const run = async (format: DocumentExportFormat) => {
    close()
    setState({ kind: 'busy', format })
    try {
      const result = await bureau.invoke('documents.exportConversation', { id: conversationId, format })
      const notes = result.warnings.length > 0 ? ` (${result.warnings.join(' ')})` : ''
      setState({ kind: 'done', path: result.agentPath, notes })
    } catch (error) {
      setState({ kind: 'failed', text: error instanceof Error ? error.message : String(error) })
    }
  }
  return (
    <div className="export-document">
      <details ref={details} onKeyDown={onKeyDown}>
        <summary className="button small secondary">Export document</summary>
        <div role="menu" aria-label="Export document">
          {(Object.keys(LABELS) as DocumentExportFormat[]).map((format) => (
            <button
              key={format}
              type="button"
              role="menuitem"
              className="button small secondary"
              disabled={state.kind === 'busy'}
              onClick={() => void run(format)}
            >
              {LABELS[format]}
            </button>
          ))}
        </div>
      </details>
      <span role="status" aria-live="polite">
        {state.kind === 'busy' && `Writing the ${LABELS[state.format]} document…`}
        {state.kind === 'done' && (
          <>
            Saved to <code>{state.path}</code>
            {state.notes}
          </>
        )}
      </span>
      {state.kind === 'failed' && <span role="alert">Export failed: {state.text}</span>}
    </div>
  )
}
