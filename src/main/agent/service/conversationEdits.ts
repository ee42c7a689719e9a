import type { Conversation, GenerationSettings, ModelChoice } from '../../../shared/ipc'
import type { ConversationStore } from '../conversations/conversationStore'

/** What `conversations.update` may change; none of it moves the conversation in the list. */
export interface ConversationChange {
  pinned?: boolean | undefined
  /** null: back to the default provider of the settings. */
  model?: ModelChoice | null | undefined
  instructions?: string | undefined
  /** null: the provider's own sampling again. */
  generation?: GenerationSettings | null | undefined
}

export function conversationEdits(store: ConversationStore) {
  return {
    change(id: string, change: ConversationChange): Promise<Conversation> {
      return store.update(
        id,
        (c) => {
          if (change.pinned !== undefined) c.pinned = change.pinned
          if (change.model === null) delete c.model
          else if (change.model) c.model = change.model
          if (change.instructions !== undefined) {
            if (change.instructions.trim()) c.instructions = change.instructions
            else delete c.instructions
          }
          if (change.generation === null) delete c.generation
          else if (change.generation) {
            const { temperature, maxOutputTokens } = change.generation
            if (temperature === undefined && maxOutputTokens === undefined) delete c.generation
            else
              c.generation = {
                ...(temperature !== undefined && { temperature }),
                ...(maxOutputTokens !== undefined && { maxOutputTokens }),
              }
          }
        },
        { touch: false },
      )
    },
  }
}
