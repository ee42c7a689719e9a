import { useRef, useState } from 'react'
import { Icon } from '../../components/Icon'
import { useConversationActions } from '../conversations/conversationsApi'

/** Imports a conversation exported as JSON; a file that is not one says why. */
export function ImportButton({ onImported }: { onImported(id: string): void }) {
  const conversations = useConversationActions()
  const input = useRef<HTMLInputElement>(null)
  const [error, setError] = useState<string | undefined>()
  const onFile = async (file: File | undefined) => {
    if (!file) return
    try {
      const summary = await conversations.importJson(await file.text())
      setError(undefined)
      onImported(summary.id)
    } catch (e) {
      setError(`${file.name}: ${e instanceof Error ? e.message : String(e)}`)
    } finally {
      if (input.current) input.current.value = ''
    }
  }
  return (
    <div className="conversations-import">
      <button type="button" className="ghost-button" onClick={() => input.current?.click()}>
        <Icon name="up" size={14} />
        Import JSON
      </button>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="import-input"
        onChange={(e) => void onFile(e.currentTarget.files?.[0])}
      />
      {error && (
        <p className="conversations-note error-text" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
