import type { ChatMessage } from '../../../shared/ipc'

export interface VoiceHistoryTurn {
  role: 'user' | 'assistant'
  content: string
}

/**
 * Earlier turns of the conversation for a spoken follow-up: what the user said (with the names of
 * attached files) and what the assistant said — of an interrupted answer only the part that was spoken.
 */
export function voiceHistory(messages: readonly ChatMessage[]): VoiceHistoryTurn[] {
  const turns: VoiceHistoryTurn[] = []
  for (const message of messages) {
    if (message.role === 'user') {
      const files = message.attachments
        .map((a) => (a.agentPath ? `${a.name} (saved as ${a.agentPath})` : a.name))
        .join(', ')
      const content = files ? `${message.text}\n\n[Attached: ${files}]` : message.text
      if (content.trim()) turns.push({ role: 'user', content })
    } else {
      const content = message.status === 'interrupted' ? (message.spokenText ?? '') : message.text
      if (content.trim()) turns.push({ role: 'assistant', content })
    }
  }
  return turns
}
