import type { ChatMessage } from '../../../shared/ipc'
import type { HistoryTurn } from '../types'

/**
 * Earlier turns for the model: what the user wrote (with the names of attached files) and what the
 * assistant said — of an interrupted (spoken) answer only the part that was actually spoken.
 * Shared by chat runs and spoken follow-ups on the Voice page.
 */
export function historyOf(messages: readonly ChatMessage[]): HistoryTurn[] {
  const turns: HistoryTurn[] = []
  for (const message of messages) {
    if (message.role === 'user') {
      const files = message.attachments
        .map((a) => (a.agentPath ? `${a.name} (saved as ${a.agentPath})` : a.name))
        .join(', ')
      const content = files ? `${message.text}\n\n[Attached: ${files}]` : message.text
      if (content.trim()) turns.push({ role: 'user', content })
    } else {
      const content = message.status === 'interrupted' ? (message.spokenText ?? '') : message.text
      const toolsets = toolsetsOf(message.steps)
      if (content.trim()) turns.push({ role: 'assistant', content, ...(toolsets.length > 0 && { toolsets }) })
    }
  }
  return turns
}

/** `spreadsheet.set_range` -> `spreadsheet`, in order of first use; the agent's own steps are not toolsets. */
function toolsetsOf(steps: ChatMessage['steps']): string[] {
  const names: string[] = []
  for (const step of steps) {
    const name = step.subagent ? undefined : step.method.split('.')[0]
    if (name && name !== 'agent' && !names.includes(name)) names.push(name)
  }
  return names
}
