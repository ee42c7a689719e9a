/** The user's own instructions: the global one (setting `agent.instructions`) and the conversation's. */
export interface CustomInstructions {
  global?: string | undefined
  conversation?: string | undefined
}

/**
 * The one section the user's instructions add at the end of the system prompt ('' when there are none).
 * It is appended after the steps block, so the prompt before it is the same for everyone (prefix caching).
 */
export function customInstructionsSection(instructions: CustomInstructions | undefined): string {
  const parts: string[] = []
  const global = instructions?.global?.trim()
  const conversation = instructions?.conversation?.trim()
  if (global) parts.push(`The user's instructions for every conversation:\n${global}`)
  if (conversation) parts.push(`The user's instructions for this conversation:\n${conversation}`)
  if (parts.length === 0) return ''
  return `\n\n## Custom instructions\n\nFollow these unless they ask for something unsafe or impossible with your tools.\n\n${parts.join('\n\n')}`
}
