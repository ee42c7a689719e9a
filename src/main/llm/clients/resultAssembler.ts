import type { ChatResult, FinishReason, ToolCall, Usage } from '../types'
import type { DriverEvent } from './driver'
import { ZERO_USAGE } from './driver'

/** Reassembles streamed events into the final message: text joined, tool-call arguments joined per index. */
export class ResultAssembler {
  private text = ''
  private readonly calls = new Map<number, ToolCall>()
  private usage: Usage = ZERO_USAGE
  private reason: FinishReason | undefined
  private model: string

  constructor(model: string) {
    this.model = model
  }

  get finished(): boolean {
    return this.reason !== undefined
  }

  add(event: DriverEvent): void {
    switch (event.type) {
      case 'text':
        this.text += event.text
        break
      case 'tool-call':
        this.calls.set(event.index, { id: event.id, name: event.name, arguments: '' })
        break
      case 'tool-call-delta': {
        const call = this.calls.get(event.index)
        if (call) call.arguments += event.arguments
        break
      }
      case 'usage':
        this.usage = event.usage
        break
      case 'finish':
        this.reason = event.reason
        if (event.model) this.model = event.model
        break
    }
  }

  result(): ChatResult {
    const toolCalls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call)
    const reason = this.reason ?? 'stop'
    return {
      message: { role: 'assistant', content: this.text, toolCalls },
      finishReason: toolCalls.length > 0 && reason === 'stop' ? 'tool_calls' : reason,
      usage: this.usage,
      model: this.model,
    }
  }
}
