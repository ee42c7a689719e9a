import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fixturePath } from '../../support/fixtures'
import { type IpcHost, startIpcHost } from '../../support/ipcHost'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { scriptedProviderEnv } from '../../support/scriptedProviderEnv'
import { stubEnv } from '../../support/stubEnv'
import { tempDirs } from '../../support/tempDir'
import { sent } from './support'

// The composer's chips convert each file before Send, through the app's converter.
const docx = new Uint8Array(readFileSync(fixturePath('core', 'report.docx')))
const xlsx = new Uint8Array(readFileSync(fixturePath('core', 'sheet.xlsx')))
const encrypted = new Uint8Array(readFileSync(fixturePath('documents', 'encrypted.docx')))
const randomBin = new Uint8Array(readFileSync(fixturePath('core', 'random.bin')))
// A docx cut in half: a zip without its central directory.
const damagedDocx = docx.slice(0, Math.floor(docx.length / 2))

const dirs = tempDirs('bureau-attach-check-')
let llm: ScriptedLlm
let host: IpcHost

beforeAll(async () => {
  llm = await startScriptedLlm()
  stubEnv(scriptedProviderEnv(llm, 'sk-attach-check', { BUREAU_INTERACTION_MODE: 'api' }))
  host = await startIpcHost({
    dataDir: await dirs.make(),
    workspaceDir: await dirs.make(),
    token: 'attach-check-token',
    events: ['agent.done', 'chat.attachment'],
    // The converter's count is the test's measure: the background index (off here) would convert /inbox's
    // files too.
  })
})
afterAll(async () => {
  await host?.stop()
  await llm?.close()
  vi.unstubAllEnvs()
  await dirs.cleanup()
})

const conversions = () => host.app.converter.stats().conversions

async function sendAndFinish(attachments: { name: string; bytes: Uint8Array<ArrayBuffer> }[]) {
  llm.push({ toolCalls: [{ name: 'done', arguments: { message: 'Read.' } }] })
  const result = await host.client.invoke('chat.send', { text: 'Summarize', attachments })
  const done = await host.waitForEvent((e) => e.event === 'agent.done' && e.payload.runId === result.runId)
  const user = (done.payload as { conversationId: string }).conversationId
  const conversation = await host.client.invoke('conversations.get', { id: user })
  return conversation.messages.find((m) => m.id === result.userMessageId)
}

describe('attachments.check', () => {
  it('converts a good .docx before Send, and Send reuses that conversion', async () => {
    const before = conversions()
    const check = await host.client.invoke('attachments.check', { name: 'test.docx', bytes: docx, count: 1 })
    expect(check).toMatchObject({ status: 'converted', format: 'docx', truncated: false })
    expect(check.status === 'converted' && check.chars).toBeGreaterThan(100)
    expect(conversions()).toBe(before + 1)

    llm.reset()
    const user = await sendAndFinish([{ name: 'test.docx', bytes: docx }])
    expect(user?.attachments[0]).toMatchObject({ name: 'test.docx', status: 'converted' })
    expect(user?.attachments[0]?.chars).toBe(check.status === 'converted' ? check.chars : -1)
    expect(sent(llm.requests[0]).find((m) => m.role === 'user')?.content).toContain('test.docx')
    // The send found the checked result in the converter's cache.
    expect(conversions()).toBe(before + 1)
  })

  it('names the converter problem for random.bin and a damaged .docx, and Send does not convert them again', async () => {
    const bin = await host.client.invoke('attachments.check', { name: 'random.bin', bytes: randomBin })
    expect(bin.status).toBe('failed')
    expect(bin.status === 'failed' && bin.error).toMatch(/^Cannot convert "random\.bin": \S/)

    const damaged = await host.client.invoke('attachments.check', {
      name: 'report.docx',
      bytes: damagedDocx,
    })
    expect(damaged.status).toBe('failed')
    expect(damaged.status === 'failed' && damaged.error).toMatch(/^Cannot convert "report\.docx": \S/)

    const before = conversions()
    llm.reset()
    const user = await sendAndFinish([{ name: 'random.bin', bytes: randomBin }])
    expect(user?.attachments[0]).toMatchObject({
      name: 'random.bin',
      status: 'failed',
      error: bin.status === 'failed' ? bin.error : '',
      agentPath: '/inbox/random.bin',
    })
    expect(conversions()).toBe(before)
  })

  it('a send while the check still runs waits for it instead of converting the file a second time', async () => {
    const before = conversions()
    const check = host.client.invoke('attachments.check', { name: 'test.xlsx', bytes: xlsx, count: 1 })
    // The check has reached the converter before Send is pressed (two requests may arrive in any order).
    await vi.waitFor(() => expect(conversions()).toBe(before + 1), { timeout: 30_000 })
    llm.reset()
    const user = await sendAndFinish([{ name: 'test.xlsx', bytes: xlsx }])
    expect((await check).status).toBe('converted')
    expect(user?.attachments[0]).toMatchObject({ name: 'test.xlsx', status: 'converted' })
    expect(conversions()).toBe(before + 1)
  })

  it('rejects a request for more files than a message carries', async () => {
    await expect(
      host.client.invoke('attachments.check', { name: 'a.txt', bytes: new Uint8Array([65]), count: 21 }),
    ).rejects.toThrow(/Invalid input for attachments.check/)
  })

  it('refuses a password-protected .docx with advice, before Send', async () => {
    const check = await host.client.invoke('attachments.check', { name: 'minutes.docx', bytes: encrypted })
    expect(check).toEqual({
      status: 'failed',
      error:
        'Cannot convert "minutes.docx": the document is password-protected; remove the password in Word (File > Info > Protect) and try again',
    })
  })
})
