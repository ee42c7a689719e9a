import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Anonymizer, LlmSession } from '../../../src/main/llm'
import { placeholderToken } from '../../../src/main/llm/anonymize/placeholderToken'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { KINDS, scriptedClient } from './support'

describe('Anonymizer', () => {
  it('uses [HEX_PLACEHOLDER] tokens by registry index, uppercase hex, and the registry only grows', () => {
    const anonymizer = new Anonymizer()
    const tokens = Array.from({ length: 32 }, (_, i) => anonymizer.add(`Term${i}`))
    expect(tokens[0]).toBe('[0_PLACEHOLDER]')
    expect(tokens[10]).toBe('[A_PLACEHOLDER]')
    expect(tokens[31]).toBe('[1F_PLACEHOLDER]')
    expect(anonymizer.add('term5')).toBe('[5_PLACEHOLDER]') // same term, any case: same token
    expect(anonymizer.size).toBe(32)
    expect(placeholderToken(255)).toBe('[FF_PLACEHOLDER]')
  })

  it('replaces whole words, case-insensitively, longest match first; words containing a term are untouched', () => {
    const anonymizer = new Anonymizer(['Anna', 'Anna Schmidt', 'ACME', 'sk-live-4242'])
    const text =
      'anna schmidt met ANNA at Acme; Annabelle, Hannah and ACMEcorp and Schmidt stay. Key: sk-live-4242.'
    expect(anonymizer.anonymize(text)).toBe(
      '[1_PLACEHOLDER] met [0_PLACEHOLDER] at [2_PLACEHOLDER]; Annabelle, Hannah and ACMEcorp and Schmidt stay. Key: [3_PLACEHOLDER].',
    )
    expect(anonymizer.anonymize('_Anna_ Anna2 Annas Ünna Anna-Lena')).toBe(
      '_Anna_ Anna2 Annas Ünna [0_PLACEHOLDER]-Lena',
    )
  })

  it('restores placeholders (any case) and leaves unknown ones alone', () => {
    const anonymizer = new Anonymizer(['Anna', 'ACME GmbH'])
    expect(anonymizer.restore('[0_PLACEHOLDER] works at [1_placeholder]. [7_PLACEHOLDER] is unknown.')).toBe(
      'Anna works at ACME GmbH. [7_PLACEHOLDER] is unknown.',
    )
    expect(new Anonymizer(['say "hi"']).restoreJson('{"q": "[0_PLACEHOLDER]"}')).toBe('{"q": "say \\"hi\\""}')
  })

  it('restores a term as the text first spelled it, not as the term list does', () => {
    const anonymizer = new Anonymizer(['ACME CORP'])
    expect(anonymizer.restore('[0_PLACEHOLDER] signs.')).toBe('ACME CORP signs.')
    expect(anonymizer.anonymize('Acme Corp signed; later ACME corp paid.')).toBe(
      '[0_PLACEHOLDER] signed; later [0_PLACEHOLDER] paid.',
    )
    expect(anonymizer.restore('[0_PLACEHOLDER] signs.')).toBe('Acme Corp signs.')
  })

  it('restores a token split at every possible chunk boundary, never emitting part of a placeholder', () => {
    const anonymizer = new Anonymizer(Array.from({ length: 40 }, (_, i) => `Name${i}`))
    const reply = 'Dear [27_PLACEHOLDER], [0_PLACEHOLDER] and [1F_PLACEHOLDER] send [regards] [1F_x] [.'
    const expected = anonymizer.restore(reply)
    expect(expected).toBe('Dear Name39, Name0 and Name31 send [regards] [1F_x] [.')
    for (let a = 0; a <= reply.length; a++) {
      for (let b = a; b <= reply.length; b++) {
        const restorer = anonymizer.streamRestorer()
        const shown = [reply.slice(0, a), reply.slice(a, b), reply.slice(b)].map((chunk) =>
          restorer.push(chunk),
        )
        shown.push(restorer.flush())
        expect(shown.join('')).toBe(expected)
        for (const piece of shown) expect(piece).not.toMatch(/_PLACEHOLDER|\[[0-9A-F]+_P?$/)
      }
    }
  })

  it('restores a stream delivered one character at a time', () => {
    const anonymizer = new Anonymizer(['Zürich'])
    const restorer = anonymizer.streamRestorer()
    const shown = [...'Go to [0_PLACEHOLDER]!'].map((char) => restorer.push(char)).join('') + restorer.flush()
    expect(shown).toBe('Go to Zürich!')
  })
})

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm()
})
afterAll(() => llm.close())
beforeEach(() => llm.reset())

const TERMS = ['Erika Mustermann', 'Mustermann GmbH', 'sk-secret-9f8e7d']

describe.each(KINDS)('anonymized session over %s', (kind) => {
  it('the server never receives a term; the user never sees a placeholder', async () => {
    const anonymizer = new Anonymizer(TERMS)
    const session = new LlmSession({
      client: scriptedClient(llm, kind),
      system: 'You help Erika Mustermann.',
      tools: [
        {
          name: 'mail_send',
          description: 'Sends a mail.',
          parameters: { type: 'object', properties: { to: { type: 'string' } } },
        },
      ],
      anonymizer,
      contextWindow: 32_000,
    })
    session.addUser(
      'Write to erika mustermann at Mustermann GmbH; the key is sk-secret-9f8e7d. Mustermannstraße stays.',
    )
    llm.push({
      toolCalls: [
        {
          id: 'call_1',
          name: 'mail_send',
          arguments: { to: '[0_PLACEHOLDER]', body: 'Hello [0_PLACEHOLDER]' },
        },
      ],
    })
    const first = await session.send({ dynamicContext: 'Attachment: contract for Erika Mustermann.pdf' })
    expect(first.toolCalls[0]?.name).toBe('mail_send')
    expect(JSON.parse(first.toolCalls[0]?.arguments ?? '{}')).toEqual({
      to: 'Erika Mustermann',
      body: 'Hello Erika Mustermann',
    })
    session.addToolResult('call_1', 'mail_send', 'Sent to Erika Mustermann <erika@mustermann-gmbh.example>.')

    const chunks = [
      'Done: ',
      'I wrote to [',
      '0_PLACE',
      'HOLDER] at [1',
      '_PLACEHOLDER]',
      ' (key [2_PLACEHOLDER]).',
    ]
    llm.push({ text: chunks.join(''), chunks })
    const shown: string[] = []
    let final = ''
    for await (const event of session.stream()) {
      if (event.type === 'text') shown.push(event.text)
      if (event.type === 'done') final = event.turn.text
    }
    const expected = 'Done: I wrote to Erika Mustermann at Mustermann GmbH (key sk-secret-9f8e7d).'
    expect(shown.join('')).toBe(expected)
    expect(final).toBe(expected)
    for (const piece of shown) expect(piece).not.toMatch(/PLACEHOLDER|\[\d/)

    expect(llm.requests.length).toBeGreaterThanOrEqual(2)
    for (const request of llm.requests) {
      for (const term of [...TERMS, 'erika mustermann'])
        expect(request.rawBody.toLowerCase()).not.toContain(term.toLowerCase())
    }
    const lastBody = llm.requests.at(-1)?.rawBody ?? ''
    expect(lastBody).toContain('Mustermannstraße stays')
    expect(lastBody).toContain('Copy every placeholder exactly')
    expect(lastBody).toContain('Sent to [0_PLACEHOLDER]')
  })
})
