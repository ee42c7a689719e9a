import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentEvent, AttachmentConverter } from '../../../src/main/agent'
import { prepareAttachments } from '../../../src/main/agent/attachments/prepareAttachments'
import { agentSuite, workspaceAt } from './support'

const suite = agentSuite('bureau-inbox-names-')
const bytes = (text: string) => new TextEncoder().encode(text)
const passThrough: AttachmentConverter = {
  async convert(input) {
    return { markdown: new TextDecoder().decode(input.bytes), format: 'text', truncated: false }
  },
}

describe('attachments with names the workspace refuses', () => {
  it('are saved to /inbox under a safe name, and the chip and a notice say which and why', async () => {
    const root = await suite.dirs.make()
    const workspace = workspaceAt(root)
    const names = [
      'CON',
      'con.txt',
      'a:b.txt',
      'trailing.',
      'invoice\u202Etxt.exe',
      '%2e%2e%2fx.txt',
      'plain.txt',
      '50% off.txt',
    ]
    const events: AgentEvent[] = []
    const prepared = await prepareAttachments({
      attachments: names.map((name, i) => ({ name, bytes: bytes(`file ${i}`) })),
      converter: passThrough,
      workspace: () => workspace,
      onEvent: (event) => events.push(event),
    })
    expect(prepared.meta.map((m) => [m.name, m.status, m.agentPath])).toEqual([
      ['CON', 'converted', '/inbox/_CON'],
      ['con.txt', 'converted', '/inbox/_con.txt'],
      ['a:b.txt', 'converted', '/inbox/a_b.txt'],
      ['trailing.', 'converted', '/inbox/trailing'],
      ['invoice\u202Etxt.exe', 'converted', '/inbox/invoicetxt.exe'],
      ['%2e%2e%2fx.txt', 'converted', '/inbox/_2e_2e_2fx.txt'],
      ['plain.txt', 'converted', '/inbox/plain.txt'],
      ['50% off.txt', 'converted', '/inbox/50% off.txt'],
    ])
    for (const [i, meta] of prepared.meta.entries()) {
      expect(await readFile(join(root, meta.agentPath!.slice(1)), 'utf8')).toBe(`file ${i}`)
    }
    expect(prepared.meta[0]!.warnings).toEqual([
      'Saved as /inbox/_CON: "CON" is not a safe file name (it is a reserved device name).',
    ])
    expect(prepared.meta[2]!.warnings?.[0]).toContain(
      'Saved as /inbox/a_b.txt: "a:b.txt" is not a safe file name',
    )
    expect(prepared.meta[4]!.warnings?.[0]).toContain('it contained control or invisible characters')
    expect(prepared.meta[6]!.warnings).toBeUndefined()
    expect(prepared.meta[7]!.warnings).toBeUndefined()
    const notices = events.flatMap((e) => (e.type === 'notice' ? [e.message] : []))
    expect(notices).toHaveLength(6)
    expect(notices[3]).toBe(
      'trailing.: Saved as /inbox/trailing: "trailing." is not a safe file name (it ended with a dot or a space).',
    )
    expect(prepared.context).toContain('<attachment name="CON" path="/inbox/_CON" format="text">')
    expect((await readdir(join(root, 'inbox'))).sort()).toHaveLength(8)
  })

  it('a file that cannot be saved at all says so on its chip instead of only in the log', async () => {
    const root = await suite.dirs.make()
    const workspace = workspaceAt(root)
    await workspace.writeFile('/inbox', 'a file where the inbox folder should be')
    const prepared = await prepareAttachments({
      attachments: [{ name: 'notes.txt', bytes: bytes('hello') }],
      converter: passThrough,
      workspace: () => workspace,
    })
    expect(prepared.meta[0]!.status).toBe('converted')
    expect(prepared.meta[0]!.agentPath).toBeUndefined()
    expect(prepared.meta[0]!.warnings?.[0]).toMatch(/^Not saved to \/inbox \(.+\); it was only read\.$/)
  })
})
