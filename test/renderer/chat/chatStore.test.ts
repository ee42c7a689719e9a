import { beforeEach, describe, expect, it } from 'vitest'
import { useChat } from '../../../src/renderer/src/chat/chatStore'
import type { ChatMessage } from '../../../src/shared/ipc'

const message = (id: string, role: ChatMessage['role'], text = ''): ChatMessage => ({
  id,
  role,
  text,
  createdAt: '2025-01-01T00:00:00.000Z',
  status: role === 'user' ? 'done' : 'streaming',
  attachments: role === 'user' ? [{ name: 'a.docx', size: 10, status: 'pending' }] : [],
  steps: [],
  files: [],
})
const ref = { runId: 'r1', conversationId: 'c1', messageId: 'm-a' }
const run = { runId: 'r1', conversationId: 'c1', userMessageId: 'm-u', assistantMessageId: 'm-a' }

describe('chat store', () => {
  beforeEach(() => {
    useChat.setState({
      conversationId: undefined,
      messages: [],
      run: undefined,
      sending: false,
      problem: undefined,
      early: [],
    })
  })

  it('replays events that arrived before chat.send answered', () => {
    const s = useChat.getState()
    s.beginSend(message('draft-u', 'user', 'hi'), message('draft-a', 'assistant'))
    s.onDelta({ ...ref, text: 'Hel' })
    s.onAttachment({
      ...ref,
      messageId: 'm-u',
      index: 0,
      attachment: { name: 'a.docx', size: 10, status: 'converted', chars: 5 },
    })
    expect(useChat.getState().messages[1]?.text).toBe('')
    useChat.getState().runStarted(run, 'draft-u', 'draft-a')
    const [user, assistant] = useChat.getState().messages
    expect(user?.id).toBe('m-u')
    expect(user?.attachments[0]?.status).toBe('converted')
    expect(assistant?.id).toBe('m-a')
    expect(assistant?.text).toBe('Hel')
    expect(useChat.getState().conversationId).toBe('c1')
  })

  it('streams deltas, upserts steps, and ends with the final message', () => {
    const s = useChat.getState()
    s.beginSend(message('draft-u', 'user'), message('draft-a', 'assistant'))
    useChat.getState().runStarted(run, 'draft-u', 'draft-a')
    const step = {
      id: 's1',
      method: 'spreadsheet.set_cell_value',
      args: {},
      status: 'running' as const,
      startedAt: 'x',
    }
    useChat.getState().onStep({ ...ref, phase: 'started', step })
    useChat.getState().onStep({ ...ref, phase: 'finished', step: { ...step, status: 'ok', durationMs: 12 } })
    useChat.getState().onDelta({ ...ref, text: 'Done' })
    useChat.getState().onDelta({ ...ref, text: '.' })
    let assistant = useChat.getState().messages[1]
    expect(assistant?.steps).toHaveLength(1)
    expect(assistant?.steps[0]?.status).toBe('ok')
    expect(assistant?.text).toBe('Done.')
    useChat
      .getState()
      .onDone({ ...ref, message: { ...message('m-a', 'assistant', 'Done.'), status: 'done' } })
    assistant = useChat.getState().messages[1]
    expect(assistant?.status).toBe('done')
    expect(useChat.getState().run).toBeUndefined()
  })

  it('ignores events of other runs', () => {
    const s = useChat.getState()
    s.beginSend(message('draft-u', 'user'), message('draft-a', 'assistant'))
    useChat.getState().runStarted(run, 'draft-u', 'draft-a')
    useChat.getState().onDelta({ ...ref, runId: 'other', text: 'nope' })
    expect(useChat.getState().messages[1]?.text).toBe('')
  })

  it('removes the drafts and keeps the problem when sending fails', () => {
    const s = useChat.getState()
    s.beginSend(message('draft-u', 'user'), message('draft-a', 'assistant'))
    useChat
      .getState()
      .sendFailed('draft-u', 'draft-a', { code: 'UNAVAILABLE', message: 'Cannot reach Ollama.' })
    expect(useChat.getState().messages).toEqual([])
    expect(useChat.getState().problem?.message).toBe('Cannot reach Ollama.')
  })
})
