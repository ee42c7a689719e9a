import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentEvent, AttachmentConverter } from '../../../src/main/agent'
import { prepareAttachments } from '../../../src/main/agent/attachments/prepareAttachments'
import { createConverter } from '../../../src/main/convert'
import { fixturePath } from '../../support/fixtures'
import { agentSuite, run, scriptedModel, sent, workspaceAt } from './support'

const corpus = fixturePath('core')
const suite = agentSuite('bureau-attach-')

const bytes = (text: string) => new TextEncoder().encode(text)

/** Returns the text as Markdown without cutting: the agent's own budget cut is what is tested. */
const passThrough: AttachmentConverter = {
  async convert(input) {
    return { markdown: new TextDecoder().decode(input.bytes), format: 'text', truncated: false }
  },
}

describe('attachments', () => {
  it('splits the budget equally, marks each cut, and saves the originals to /inbox de-duplicated', async () => {
    const root = await suite.dirs.make()
    const workspace = workspaceAt(root)
    await workspace.writeFile('/inbox/notes.txt', 'an older, different file')
    const long = (letter: string) => Array.from({ length: 400 }, (_, i) => `${letter} line ${i}`).join('\n')
    const events: AgentEvent[] = []
    const prepared = await prepareAttachments({
      attachments: [
        { name: 'notes.txt', bytes: bytes(long('A')) },
        { name: '../../evil/report.md', bytes: bytes(long('B')) },
        { name: 'short.txt', bytes: bytes('tiny file') },
      ],
      converter: passThrough,
      workspace: () => workspace,
      budgetChars: 3_000,
      onEvent: (event) => events.push(event),
    })
    expect(prepared.meta.map((m) => [m.name, m.status, m.agentPath, m.truncated])).toEqual([
      ['notes.txt', 'converted', '/inbox/notes-2.txt', true],
      ['../../evil/report.md', 'converted', '/inbox/report.md', true],
      ['short.txt', 'converted', '/inbox/short.txt', false],
    ])
    for (const meta of prepared.meta) expect(meta.chars ?? 0).toBeLessThanOrEqual(1_000)
    expect(prepared.context.match(/\[… cut: showing \d+ of \d+ characters\]/g)).toHaveLength(2)
    expect(prepared.context).toContain(
      '<attachment name="notes.txt" path="/inbox/notes-2.txt" format="text" truncated="true">',
    )
    expect(prepared.context).toContain('tiny file')
    expect(await readFile(join(root, 'inbox/report.md'), 'utf8')).toBe(long('B'))
    expect(await readFile(join(root, 'inbox/notes.txt'), 'utf8')).toBe('an older, different file')
    // The same file dropped again reuses its copy.
    const again = await prepareAttachments({
      attachments: [{ name: 'short.txt', bytes: bytes('tiny file') }],
      converter: passThrough,
      workspace: () => workspace,
    })
    expect(again.meta[0]?.agentPath).toBe('/inbox/short.txt')
    // Status events: converting, then converted, per file.
    const statuses = events.flatMap((e) =>
      e.type === 'attachment' ? [`${e.index}:${e.attachment.status}`] : [],
    )
    expect(statuses).toEqual([
      '0:converting',
      '0:converted',
      '1:converting',
      '1:converted',
      '2:converting',
      '2:converted',
    ])
  })

  it('a corrupt file is named in a notice and skipped while the others reach the model (real converter)', async () => {
    const root = await suite.dirs.make()
    const converter = createConverter({ ocr: false })
    suite.llm.push({ text: 'The JSON file lists the items.' })
    const { result, events } = await run({
      prompt: 'What is in these files?',
      model: scriptedModel(suite.llm),
      toolsets: [suite.files],
      interactionMode: 'api',
      workspace: workspaceAt(root),
      converter,
      attachments: [
        { name: 'random.bin', bytes: await readFile(join(corpus, 'random.bin')) },
        { name: 'test.json', bytes: await readFile(join(corpus, 'notes.json')) },
      ],
    })
    await converter.dispose()
    expect(result.status).toBe('answered')
    const notice = events.find((e) => e.type === 'notice')
    expect(notice?.type === 'notice' && notice.message).toContain('random.bin')
    expect(result.received.map((m) => [m.name, m.status])).toEqual([
      ['random.bin', 'failed'],
      ['test.json', 'converted'],
    ])
    expect(result.received[0]?.error).toContain('random.bin')
    const user =
      sent(suite.llm.requests[0])
        .filter((m) => m.role === 'user')
        .at(-1)?.content ?? ''
    expect(user).toContain('What is in these files?')
    expect(user).toContain('<attachment name="test.json" path="/inbox/test.json"')
    expect(user).not.toContain('<attachment name="random.bin"')
    expect(user).toMatch(/could not be read[\s\S]*random\.bin/)
    // Both originals were saved so tools can work on them.
    expect(
      (await readFile(join(root, 'inbox/test.json'))).equals(await readFile(join(corpus, 'notes.json'))),
    ).toBe(true)
  })
})
