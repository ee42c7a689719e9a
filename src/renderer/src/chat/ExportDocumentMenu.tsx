import { type FocusEvent, type KeyboardEvent, useRef, useState } from 'react'
import type { DocumentExportFormat } from '../../../shared/ipc'
import { Icon } from '../components/Icon'
import { useConversationActions } from './conversations/conversationsApi'

type State =
  | { kind: 'idle' }
  | { kind: 'busy'; format: DocumentExportFormat }
  | { kind: 'done'; path: string; notes: string }
  | { kind: 'failed'; text: string }

const LABELS: Record<DocumentExportFormat, string> = { docx: 'Word (.docx)', pdf: 'PDF' }
const FORMATS = Object.keys(LABELS) as DocumentExportFormat[]

interface Props {
  conversationId: string
  /** Export only this answer (the menu sits in the answer's actions); default: the whole conversation. */
  messageId?: string | undefined
}

/** Arrow keys move between the formats; Escape closes and gives focus back to the button. */
function menuKeys(event: KeyboardEvent, details: HTMLDetailsElement | null, close: () => void) {
  if (!details?.open) return
  if (event.key === 'Escape') {
    event.stopPropagation()
    close()
    return
  }
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
  const items = [...details.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)')]
  if (items.length === 0) return
  event.preventDefault()
  const at = items.indexOf(document.activeElement as HTMLButtonElement)
  const step = event.key === 'ArrowDown' ? 1 : -1
  items[(at + step + items.length) % items.length]?.focus()
}

/** "Export as Word / PDF": writes the conversation (or one answer) to /exports in the workspace and says where. */
export function ExportDocumentMenu({ conversationId, messageId }: Props) {
  const conversations = useConversationActions()
  const [state, setState] = useState<State>({ kind: 'idle' })
  const details = useRef<HTMLDetailsElement>(null)
  const answer = messageId !== undefined
  const menuLabel = answer ? 'Export this answer' : 'Export document'
  const close = () => {
    if (details.current?.open) details.current.open = false
    details.current?.querySelector('summary')?.focus()
  }
  // Focus leaving the menu (Tab away, a click elsewhere) closes it, so two menus are never open at once.
  const onBlur = (event: FocusEvent) => {
    const next = event.relatedTarget as Node | null
    if (details.current?.open && !(next && details.current.contains(next))) details.current.open = false
  }
  const run = async (format: DocumentExportFormat) => {
    close()
    setState({ kind: 'busy', format })
    try {
      const result = await conversations.exportDocument({
        id: conversationId,
        format,
        ...(answer ? { messageId } : {}),
      })
      const notes = result.warnings.length > 0 ? ` (${result.warnings.join(' ')})` : ''
      setState({ kind: 'done', path: result.agentPath, notes })
    } catch (error) {
      setState({ kind: 'failed', text: error instanceof Error ? error.message : String(error) })
    }
  }
  return (
    <div className={answer ? 'export-document export-answer' : 'export-document'}>
      <details ref={details} onKeyDown={(e) => menuKeys(e, details.current, close)} onBlur={onBlur}>
        {answer ? (
          <summary className="ghost-button">
            <Icon name="download" size={14} />
            Export<span className="visually-hidden"> this answer</span>
          </summary>
        ) : (
          <summary className="button small secondary">Export document</summary>
        )}
        <div role="menu" aria-label={menuLabel}>
          {FORMATS.map((format) => (
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
