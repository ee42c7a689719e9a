import { describe, expect, it } from 'vitest'
import { createChatSpeaker } from '../../../src/renderer/src/voice/chatSpeaker'
import type { SpeechOutput } from '../../../src/renderer/src/voice/voicePorts'
import { tick } from '../../support/promises'

function fakeChat() {
  const deltas = new Set<(e: { runId: string; text: string }) => void>()
  const dones = new Set<(e: { runId: string }) => void>()
  return {
    events: {
      onDelta: (l: (e: { runId: string; text: string }) => void) => {
        deltas.add(l)
        return () => deltas.delete(l)
      },
      onDone: (l: (e: { runId: string }) => void) => {
        dones.add(l)
        return () => dones.delete(l)
      },
    },
    delta: (runId: string, text: string) => {
      for (const l of deltas) l({ runId, text })
    },
    done: (runId: string) => {
      for (const l of dones) l({ runId })
    },
    listeners: () => deltas.size + dones.size,
  }
}

function recordingOutput(log: string[]): SpeechOutput<string> {
  return {
    engine: 'fake',
    prepare: async (s) => s.text,
    play: async (text, _s, signal) => {
      log.push(text)
      await tick()
      if (signal.aborted) log.push('(cut)')
    },
  }
}

describe('auto-speak of chat answers', () => {
  it('speaks a streamed chat answer sentence by sentence, the tail when the run ends', async () => {
    const chat = fakeChat()
    const log: string[] = []
    const speaker = createChatSpeaker(chat.events, () => recordingOutput(log) as SpeechOutput)
    chat.delta('r1', 'The workbook has three sheets in total. ')
    chat.delta('r1', 'The second one holds the totals')
    for (let i = 0; i < 4; i++) await tick()
    expect(log).toEqual(['The workbook has three sheets in total.'])
    chat.done('r1')
    for (let i = 0; i < 4; i++) await tick()
    expect(log).toEqual(['The workbook has three sheets in total.', 'The second one holds the totals'])
    speaker.dispose()
    expect(chat.listeners()).toBe(0)
  })

  it('a new run silences the previous one', async () => {
    const chat = fakeChat()
    const log: string[] = []
    createChatSpeaker(chat.events, () => recordingOutput(log) as SpeechOutput)
    chat.delta('r1', 'This is the first answer and it is long. It goes on and on for a while. ')
    await tick()
    chat.delta('r2', 'Here is the answer to the new question. ')
    chat.done('r2')
    for (let i = 0; i < 6; i++) await tick()
    expect(log).toContain('(cut)')
    expect(log).not.toContain('It goes on and on for a while.')
    expect(log).toContain('Here is the answer to the new question.')
  })
})
