import { jsonObjectOf } from '../../../shared/json'

/** Tool-call arguments as an object for protocols that need one (Ollama, Anthropic); `{}` when unreadable. */
export function argumentsObject(text: string): Record<string, unknown> {
  return jsonObjectOf(text)
}
