import { describe, expect, it } from 'vitest'
import {
  chunkText,
  createTtsQueue,
  type SpokenSentence,
  spokenTextOf,
  type TtsQueueEvent,
} from '../../../src/shared/voice'
import { deferred, tick } from '../../support/promises'

const sentence = (index: number, text = `Sentence number ${index}.`): SpokenSentence => ({
  index,
  text,
  kind: 'text',
})

/** A fake engine: every synthesis and every playback waits until the test releases it. */
function harness(lookahead = 2) {
  const syntheses = new Map<number, ReturnType<typeof deferred<string>>>()
  const playbacks = new Map<number, ReturnType<typeof deferred<void>>>()
  const log: string[] = []
  const events: TtsQueueEvent[] = []
  const aborted: number[] = []
  const queue = createTtsQueue<string>({
    lookahead,
    synthesize(s, signal) {
      const d = deferred<string>()
      syntheses.set(s.index, d)
      log.push(`synth ${s.index}`)
      signal.addEventListener('abort', () => {
        aborted.push(s.index)
        d.reject(new Error('aborted'))
      })
      return d.promise
    },
    play(audio, s, signal) {
      const d = deferred<void>()
      playbacks.set(s.index, d)
      log.push(`play ${s.index} (${audio})`)
      signal.addEventListener('abort', () => {
        log.push(`stop ${s.index}`)
        d.resolve()
      })
      return d.promise
    },
    onEvent: (event) => events.push(event),
  })
  return { queue, syntheses, playbacks, log, events, aborted }
}

describe('TTS queue', () => {
  it('plays strictly in order when syntheses finish out of order', async () => {
    const h = harness(3)
    for (let i = 0; i < 3; i++) h.queue.push(sentence(i))
    h.queue.end()
    await tick()
    expect(h.log).toEqual(['synth 0', 'synth 1', 'synth 2'])
    h.syntheses.get(2)?.resolve('audio-2')
    h.syntheses.get(1)?.resolve('audio-1')
    await tick()
    expect(h.log.filter((l) => l.startsWith('play'))).toEqual([])
    h.syntheses.get(0)?.resolve('audio-0')
    await tick()
    expect(h.log.at(-1)).toBe('play 0 (audio-0)')
    h.playbacks.get(0)?.resolve()
    await tick()
    h.playbacks.get(1)?.resolve()
    await tick()
    h.playbacks.get(2)?.resolve()
    const result = await h.queue.finished
    expect(h.log.filter((l) => l.startsWith('play'))).toEqual([
      'play 0 (audio-0)',
      'play 1 (audio-1)',
      'play 2 (audio-2)',
    ])
    expect(result.status).toBe('finished')
    expect(result.spoken.map((s) => s.index)).toEqual([0, 1, 2])
  })

  it('synthesizes ahead while a sentence plays, but no further than the lookahead', async () => {
    const h = harness(2)
    for (let i = 0; i < 5; i++) h.queue.push(sentence(i))
    await tick()
    expect(h.log).toEqual(['synth 0', 'synth 1'])
    h.syntheses.get(0)?.resolve('a0')
    await tick()
    // Sentence 0 plays; 1 and 2 are being synthesized meanwhile.
    expect(h.log).toEqual(['synth 0', 'synth 1', 'synth 2', 'play 0 (a0)'])
  })

  it('barge-in stops playback at once, aborts pending syntheses and drops the queue', async () => {
    const h = harness(2)
    for (let i = 0; i < 4; i++) h.queue.push(sentence(i))
    h.syntheses.get(0)?.resolve('a0')
    await tick()
    h.playbacks.get(0)?.resolve()
    h.syntheses.get(1)?.resolve('a1')
    await tick()
    expect(h.log.at(-1)).toBe('play 1 (a1)')
    h.queue.cancel()
    expect(h.log.at(-1)).toBe('stop 1')
    const result = await h.queue.finished
    expect(result.status).toBe('cancelled')
    // 1 was playing when the user spoke: it counts as spoken; 2 and 3 never will be.
    expect(result.spoken.map((s) => s.index)).toEqual([0, 1])
    expect(h.aborted).toContain(2)
    h.queue.push(sentence(9))
    await tick()
    expect(h.log.some((l) => l.includes(' 9'))).toBe(false)
    expect(h.events.at(-1)).toEqual({ type: 'cancelled' })
    expect(h.queue.spokenText()).toBe('Sentence number 0. Sentence number 1.')
  })

  it('cancelling before anything played speaks nothing', async () => {
    const h = harness()
    h.queue.push(sentence(0))
    h.queue.cancel()
    const result = await h.queue.finished
    expect(result).toEqual({ status: 'cancelled', spoken: [], failed: [] })
  })

  it('skips a sentence whose synthesis failed and goes on', async () => {
    const h = harness(3)
    for (let i = 0; i < 3; i++) h.queue.push(sentence(i))
    h.queue.end()
    await tick()
    h.syntheses.get(0)?.resolve('a0')
    h.syntheses.get(1)?.reject(new Error('engine down'))
    h.syntheses.get(2)?.resolve('a2')
    await tick()
    h.playbacks.get(0)?.resolve()
    await tick()
    await tick()
    h.playbacks.get(2)?.resolve()
    const result = await h.queue.finished
    expect(result.spoken.map((s) => s.index)).toEqual([0, 2])
    expect(result.failed.map((s) => s.index)).toEqual([1])
    expect(h.events).toContainEqual(expect.objectContaining({ type: 'error', index: 1, stage: 'synthesis' }))
  })

  it('a sentence whose playback failed does not count as spoken', async () => {
    const queue = createTtsQueue<string>({
      synthesize: async (s) => `a${s.index}`,
      play: async (audio) => {
        if (audio === 'a0') throw new Error('no sound device')
      },
    })
    queue.push(sentence(0))
    queue.push(sentence(1))
    queue.end()
    const result = await queue.finished
    expect(result.spoken.map((s) => s.index)).toEqual([1])
    expect(result.failed.map((s) => s.index)).toEqual([0])
  })

  it('finishes at once when ended with nothing queued, and after the last sentence otherwise', async () => {
    const empty = harness()
    empty.queue.end()
    expect((await empty.queue.finished).status).toBe('finished')

    const h = harness()
    h.queue.push(sentence(0))
    let done = false
    void h.queue.finished.then(() => {
      done = true
    })
    h.queue.end()
    h.syntheses.get(0)?.resolve('a0')
    await tick()
    expect(done).toBe(false)
    h.playbacks.get(0)?.resolve()
    await tick()
    expect(done).toBe(true)
  })

  it('keeps feeding sentences pushed while the queue is idle between them', async () => {
    const h = harness()
    h.queue.push(sentence(0))
    h.syntheses.get(0)?.resolve('a0')
    await tick()
    h.playbacks.get(0)?.resolve()
    await tick()
    h.queue.push(sentence(1))
    h.syntheses.get(1)?.resolve('a1')
    await tick()
    expect(h.log.at(-1)).toBe('play 1 (a1)')
  })
})

describe('spokenTextOf', () => {
  it('keeps the spoken sentences and puts blocks back as Markdown', () => {
    const sentences = chunkText(
      'First we load the data properly.\n\n```js\nconst x = 1\n\n  y()\n```\n\nThen we are done here.',
    )
    expect(spokenTextOf(sentences)).toBe(
      'First we load the data properly.\n\n```js\nconst x = 1\n\n  y()\n```\n\nThen we are done here.',
    )
  })
})
