import type { ChatProblem } from '../chatStore'

/** An AppError from the client (or anything thrown) as something the chat can show. */
export function problemFrom(error: unknown): ChatProblem {
  if (error && typeof error === 'object' && 'message' in error) {
    const { code, message } = error as { code?: unknown; message: unknown }
    return { code: typeof code === 'string' ? code : undefined, message: String(message) }
  }
  return { message: String(error) }
}
