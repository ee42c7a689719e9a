import { afterEach, describe, expect, it } from 'vitest'
import { createConversationStore, type HistoryTurn, historyOf } from '../../../src/main/agent'
import { createVoiceService } from '../../../src/main/voice'
import type { VoiceChatPort } from '../../../src/main/voice/ask/voiceAsks'
import type { ChatMessage, EventPayload, Events } from '../../../src/shared/ipc'
import { tempDirs } from '../../support/tempDir'
import { settingsStub } from './settingsStub'

const dirs = tempDirs('bureau-voice-asks-')
afterEach(() => dirs.cleanup())

type Emitted = {
  event: 'voice.delta' | 'voice.done'
  payload: EventPayload<Events, 'voice.delta' | 'voice.done'>
}

/** A chat port whose stream yields chunks when the test says so. */
function controllableChat() {
  const prompts: string[] = []
  const histories: HistoryTurn[][] = []
  let push: (chunk: string | null) => void = () => {}
  const pending: Array<string | null> = []
  let wake: (() => void) | undefined
  push = (chunk) => {
    pending.push(chunk)
    wake?.()
  }
  const chat: VoiceChatPort = {
    async *streamDetached({ prompt, history, signal }) {
      prompts.push(prompt)
      histories.push([...history])
      for (;;) {
        while (pending.length === 0) {
          if (signal.aborted) return
          await new Promise<void>((resolve) => {
            wake = resolve
            signal.addEventListener('abort', () => resolve(), { once: true })
          })
        }
        const chunk = pending.shift()
        if (chunk === null || chunk === undefined) return
        yield chunk
      }
    },
  }
  return { chat, prompts, histories, push }
}

async function setup(chat: VoiceChatPort) {
  const store = createConversationStore({ dir: await dirs.make() })
  const emitted: Emitted[] = []
  const service = createVoiceService({
    settings: settingsStub(),
    chat,
    conversations: store,
    events: { emit: (event, payload) => emitted.push({ event, payload } as Emitted) },
  })
  const until = async <T>(find: () => T | undefined): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const found = find()
      if (found !== undefined) return found
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    throw new Error('timed out')
  }
  const doneMessage = (askId: string) =>
    until(() => {
      const done = emitted.find((e) => e.event === 'voice.done' && e.payload.askId === askId)
      return done ? (done.payload as { message: ChatMessage }).message : undefined
    })
  return { store, emitted, service, until, doneMessage }
}

describe('spoken answers', () => {
  it('streams deltas and saves the question and the answer in a new conversation', async () => {
    const { chat, push } = controllableChat()
    const { store, emitted, service, doneMessage } = await setup(chat)
    const refs = await service.ask({ text: 'What were the sales in March?' })
    push('Sales rose ')
    push('by 12 percent.')
    push(null)
    const message = await doneMessage(refs.askId)
    expect(message).toMatchObject({
      id: refs.assistantMessageId,
      status: 'done',
      text: 'Sales rose by 12 percent.',
    })
    expect(
      emitted.filter((e) => e.event === 'voice.delta').map((e) => (e.payload as { text: string }).text),
    ).toEqual(['Sales rose ', 'by 12 percent.'])
    const saved = await store.get(refs.conversationId)
    expect(saved.messages.map((m) => [m.role, m.text, m.status])).toEqual([
      ['user', 'What were the sales in March?', 'done'],
      ['assistant', 'Sales rose by 12 percent.', 'done'],
    ])
  })

  it('barge-in mid-stream stops the stream, keeps what was spoken and marks the rest interrupted', async () => {
    const { chat, push } = controllableChat()
    const { store, emitted, service, until, doneMessage } = await setup(chat)
    const refs = await service.ask({ text: 'Tell me about the report.' })
    push('The report has three parts. ')
    push('The first covers sales. ')
    await until(() => (emitted.filter((e) => e.event === 'voice.delta').length === 2 ? true : undefined))
    const interrupted = await service.interrupt({
      conversationId: refs.conversationId,
      messageId: refs.assistantMessageId,
      spokenText: 'The report has three parts.',
    })
    expect(interrupted).toBe(true)
    push('The second covers costs.')
    const message = await doneMessage(refs.askId)
    expect(message).toMatchObject({
      status: 'interrupted',
      spokenText: 'The report has three parts.',
      text: 'The report has three parts. The first covers sales. ',
    })
    const saved = (await store.get(refs.conversationId)).messages[1]
    expect(saved).toMatchObject({ status: 'interrupted', spokenText: 'The report has three parts.' })
  })

  it('barge-in after the stream ended (audio still playing) marks the saved answer interrupted', async () => {
    const { chat, push } = controllableChat()
    const { store, service, doneMessage } = await setup(chat)
    const refs = await service.ask({ text: 'Read me the summary.' })
    push('One. Two. Three.')
    push(null)
    await doneMessage(refs.askId)
    expect(
      await service.interrupt({
        conversationId: refs.conversationId,
        messageId: refs.assistantMessageId,
        spokenText: 'One.',
      }),
    ).toBe(true)
    expect((await store.get(refs.conversationId)).messages[1]).toMatchObject({
      status: 'interrupted',
      text: 'One. Two. Three.',
      spokenText: 'One.',
    })
    expect(
      await service.interrupt({
        conversationId: refs.conversationId,
        messageId: 'no-such-message',
        spokenText: '',
      }),
    ).toBe(false)
  })

  it('Stop cancels the stream and keeps the text so far', async () => {
    const { chat, push } = controllableChat()
    const { emitted, service, until, doneMessage } = await setup(chat)
    const refs = await service.ask({ text: 'Count slowly.' })
    push('One, ')
    await until(() => (emitted.some((e) => e.event === 'voice.delta') ? true : undefined))
    expect(service.cancel(refs.askId)).toBe(true)
    expect(await doneMessage(refs.askId)).toMatchObject({ status: 'cancelled', text: 'One, ' })
    expect(service.cancel(refs.askId)).toBe(false)
  })

  it('a failing model ends the answer with an error message, and the next question works', async () => {
    const failing: VoiceChatPort = {
      // biome-ignore lint/correctness/useYield: fails before the first chunk
      async *streamDetached() {
        const { AppError } = await import('../../../src/shared/errors')
        throw new AppError('UNAVAILABLE', 'The model is not reachable.')
      },
    }
    const { service, doneMessage } = await setup(failing)
    const refs = await service.ask({ text: 'Hello?' })
    expect(await doneMessage(refs.askId)).toMatchObject({
      status: 'error',
      error: 'The model is not reachable.',
    })
  })

  it('a follow-up carries the earlier turns as history (only the spoken part of an interrupted answer)', async () => {
    const { chat, prompts, histories, push } = controllableChat()
    const { service, doneMessage } = await setup(chat)
    const first = await service.ask({ text: 'Which region sold most?' })
    push('The north sold most. It had a strong March.')
    push(null)
    await doneMessage(first.askId)
    await service.interrupt({
      conversationId: first.conversationId,
      messageId: first.assistantMessageId,
      spokenText: 'The north sold most.',
    })
    const second = await service.ask({ conversationId: first.conversationId, text: 'And the south?' })
    push('The south was second.')
    push(null)
    await doneMessage(second.askId)
    expect(prompts[1]).toBe('And the south?')
    expect(histories[1]).toEqual([
      { role: 'user', content: 'Which region sold most?' },
      { role: 'assistant', content: 'The north sold most.' },
    ])
  })

  it('saves the conversion status of attached files reported while answering', async () => {
    const chat: VoiceChatPort = {
      async *streamDetached({ attachments, onEvent }) {
        onEvent?.({
          type: 'attachment',
          index: 0,
          attachment: {
            name: attachments[0]?.name ?? '',
            size: 5,
            status: 'converted',
            agentPath: '/inbox/notes.txt',
            chars: 5,
          },
        })
        yield 'The notes say hello.'
      },
    }
    const { store, service, doneMessage } = await setup(chat)
    const refs = await service.ask({
      text: 'What do my notes say?',
      attachments: [{ name: 'notes.txt', bytes: new TextEncoder().encode('hello') }],
    })
    await doneMessage(refs.askId)
    const user = (await store.get(refs.conversationId)).messages[0]
    expect(user?.attachments).toEqual([
      expect.objectContaining({ name: 'notes.txt', status: 'converted', agentPath: '/inbox/notes.txt' }),
    ])
  })

  it('refuses a second answer in a conversation while one streams', async () => {
    const { chat, push } = controllableChat()
    const { service, doneMessage } = await setup(chat)
    const refs = await service.ask({ text: 'First question.' })
    await expect(service.ask({ conversationId: refs.conversationId, text: 'Second.' })).rejects.toMatchObject(
      {
        code: 'CONFLICT',
      },
    )
    push(null)
    await doneMessage(refs.askId)
  })

  it('without a chat service, asking says so', async () => {
    const service = createVoiceService({ settings: settingsStub() })
    await expect(service.ask({ text: 'Hi' })).rejects.toMatchObject({ code: 'UNAVAILABLE' })
  })
})

describe('conversation history for spoken follow-ups', () => {
  it('names attached files and skips empty turns', () => {
    const base = { createdAt: '', steps: [], files: [] }
    expect(
      historyOf([
        {
          ...base,
          id: '1',
          role: 'user',
          text: 'Read this',
          status: 'done',
          attachments: [{ name: 'a.docx', size: 1, status: 'converted', agentPath: '/inbox/a.docx' }],
        },
        { ...base, id: '2', role: 'assistant', text: 'Done.', status: 'interrupted', attachments: [] },
        { ...base, id: '3', role: 'assistant', text: 'It says hi.', status: 'done', attachments: [] },
      ]),
    ).toEqual([
      { role: 'user', content: 'Read this\n\n[Attached: a.docx (saved as /inbox/a.docx)]' },
      { role: 'assistant', content: 'It says hi.' },
    ])
  })
})
