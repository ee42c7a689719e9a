import { useState } from 'react'
import type { DocumentExportFormat } from '../../../shared/ipc'
import { bureau } from '../ipc/bureauClient'

type State =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'done'; text: string }
  | { kind: 'failed'; text: string }

const LABELS: Record<DocumentExportFormat, string> = { docx: 'Word (.docx)', pdf: 'PDF' }

/** "Export as Word / PDF": writes the conversation to /exports in the workspace and says where. */
export function ExportDocumentMenu({ conversationId }: { conversationId: string }) {
  const [state, setState] = useState<State>({ kind: 'idle' })
  const run = async (format: DocumentExportFormat) => {
    setState({ kind: 'busy' })
    try {
      const result = await bureau.invoke('documents.exportConversation', { id: conversationId, format })
      const notes = result.warnings.length > 0 ? ` (${result.warnings.join(' ')})` : ''
      setState({ kind: 'done', text: `Saved to ${result.agentPath}${notes}` })
    } catch (error) {
      setState({ kind: 'failed', text: error instanceof Error ? error.message : String(error) })
    }
  }
  return (
    <div className="export-document">
      <details>
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
      {state.kind === 'busy' && <span role="status">Writing the document…</span>}
      {state.kind === 'done' && <span role="status">{state.text}</span>}
      {state.kind === 'failed' && <span role="alert">Export failed: {state.text}</span>}
    </div>
  )
}
