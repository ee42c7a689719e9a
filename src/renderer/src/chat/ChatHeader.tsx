import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { Conversation, ModelChoice } from '../../../shared/ipc'
import { Icon } from '../components/Icon'
import { queryKeys } from '../ipc/queryKeys'
import { useChat } from './chatStore'
import { useInstructionTokens } from './composer/useInstructionTokens'
import { useConversationActions } from './conversations/conversationsApi'
import { downloadText } from './download'
import { ModelPicker } from './ModelPicker'
import { problemFrom } from './messages/problemFrom'

interface Props {
  conversation: Pick<Conversation, 'id' | 'model' | 'instructions'> | undefined
  /** The choice for the next new conversation (before it has an id). */
  draftModel: ModelChoice | undefined
  onDraftModel(choice: ModelChoice | undefined): void
  busy: boolean
  onChanged(conversation: Conversation): void
}

function InstructionsPanel({
  conversation,
  onSaved,
  onClose,
}: {
  conversation: Pick<Conversation, 'id' | 'instructions'>
  onSaved(c: Conversation): void
  onClose(): void
}) {
  const conversations = useConversationActions()
  const [text, setText] = useState(conversation.instructions ?? '')
  const tokens = useInstructionTokens({ conversation: text })
  const save = async () => {
    try {
      onSaved(await conversations.update({ id: conversation.id, instructions: text }))
      onClose()
    } catch (error) {
      useChat.getState().setProblem(problemFrom(error))
    }
  }
  return (
    <section className="instructions-panel" aria-label="Instructions for this conversation">
      <label className="field-label" htmlFor="conversation-instructions">
        Instructions for this conversation
      </label>
      <textarea
        id="conversation-instructions"
        className="input"
        rows={3}
        maxLength={8000}
        value={text}
        placeholder="e.g. Answer in French. Keep tables to five columns."
        onChange={(e) => setText(e.currentTarget.value)}
      />
      <p className="hint" data-testid="conversation-instruction-tokens">
        Added after the global instruction (Settings → Agent)
        {tokens !== undefined && text.trim() ? ` · ${tokens.toLocaleString()} tokens` : ''}
      </p>
      <div className="edit-buttons">
        <button type="button" className="button small" onClick={() => void save()}>
          Save
        </button>
        <button type="button" className="button small secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </section>
  )
}

/** Above the conversation: the model picker, the conversation's instructions and its export. */
export function ChatHeader({ conversation, draftModel, onDraftModel, busy, onChanged }: Props) {
  const conversations = useConversationActions()
  const queryClient = useQueryClient()
  const [instructionsOpen, setInstructionsOpen] = useState(false)
  const openId = conversation?.id
  // biome-ignore lint/correctness/useExhaustiveDependencies: another conversation closes the panel
  useEffect(() => setInstructionsOpen(false), [openId])

  const pick = async (choice: ModelChoice | undefined) => {
    if (!conversation) return onDraftModel(choice)
    try {
      onChanged(await conversations.update({ id: conversation.id, model: choice ?? null }))
    } catch (error) {
      useChat.getState().setProblem(problemFrom(error))
    }
  }
  const exportAs = async (format: 'markdown' | 'json') => {
    if (!conversation) return
    try {
      const file = await conversations.exportAs({ id: conversation.id, format })
      downloadText(file.fileName, file.mimeType, file.text)
    } catch (error) {
      useChat.getState().setProblem(problemFrom(error))
    }
  }

  return (
    <div className="chat-header-wrap">
      <div className="chat-header">
        <ModelPicker
          value={conversation ? conversation.model : draftModel}
          onChange={(c) => void pick(c)}
          disabled={busy}
        />
        <div className="chat-header-actions">
          <button
            type="button"
            className="ghost-button"
            disabled={!conversation}
            aria-expanded={instructionsOpen}
            title={
              conversation ? undefined : 'Send a first message, then add instructions for this conversation'
            }
            onClick={() => setInstructionsOpen((open) => !open)}
          >
            <Icon name="pencil" size={14} />
            Instructions{conversation?.instructions ? ' ✓' : ''}
          </button>
          <button
            type="button"
            className="ghost-button"
            disabled={!conversation}
            onClick={() => void exportAs('markdown')}
          >
            <Icon name="download" size={14} />
            Export Markdown
          </button>
          <button
            type="button"
            className="ghost-button"
            disabled={!conversation}
            onClick={() => void exportAs('json')}
          >
            <Icon name="download" size={14} />
            Export JSON
          </button>
        </div>
      </div>
      {instructionsOpen && conversation && (
        <InstructionsPanel
          conversation={conversation}
          onSaved={(c) => {
            onChanged(c)
            void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.all() })
          }}
          onClose={() => setInstructionsOpen(false)}
        />
      )}
    </div>
  )
}
