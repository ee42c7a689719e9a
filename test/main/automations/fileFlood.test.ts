import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type AutomationRunner,
  createAutomationRunner,
  createAutomationService,
  openAutomationStore,
} from '../../../src/main/automations'
import { createWorkspace } from '../../../src/main/workspace'
import type { AutomationRun } from '../../../src/shared/automations'
import { tempDirs } from '../../support/tempDir'
import { recordingExecutor } from './support'

// 200 files dropped into a watched folder at once, with the real workspace watcher.

const dirs = tempDirs('bureau-automations-flood-')
let runner: AutomationRunner | undefined
let closeWorkspace: (() => Promise<void>) | undefined
afterEach(async () => {
  await runner?.stop()
  runner = undefined
  await closeWorkspace?.()
  closeWorkspace = undefined
  await dirs.cleanup()
})

describe('a flood of files', () => {
  it('200 files at once: queued under the cap in the order they landed, the rest reported, none lost', async () => {
    const root = await dirs.make()
    await mkdir(join(root, 'inbox'))
    const workspace = createWorkspace({ root })
    closeWorkspace = () => workspace.close()
    const store = openAutomationStore({ dataDir: await dirs.make() })
    const service = createAutomationService({
      store,
      context: { timeZone: () => 'UTC', workspace: () => workspace },
    })
    await service.create({
      name: 'Invoices',
      prompt: 'Add the total.',
      trigger: { kind: 'file', folder: '/inbox', glob: '*.pdf' },
    })
    // The first run holds until every file has been queued or reported, so the queue really fills.
    // A cap of 20 rather than the default 100 keeps the file short; the logic is the same.
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const recorder = recordingExecutor()
    let running = 0
    let mostRunning = 0
    const executor = {
      async runUnattended(input: Parameters<typeof recorder.executor.runUnattended>[0]) {
        running++
        mostRunning = Math.max(mostRunning, running)
        await held
        const result = await recorder.executor.runUnattended(input)
        running--
        return result
      },
    }
    const ended: AutomationRun[] = []
    const problems: string[] = []
    const cap = 20
    runner = createAutomationRunner({
      store,
      executor: () => executor,
      workspace: () => workspace,
      settleMs: 200,
      queueCap: cap,
      maxConcurrent: 4,
      dropReportMs: 300,
      onRunEnded: (run) => ended.push(run),
      onProblem: (message) => problems.push(message),
    })
    await runner.start()
    await runner.settled()

    const names = Array.from({ length: 200 }, (_, i) => `invoice-${String(i).padStart(3, '0')}.pdf`)
    // Written beside the workspace, then moved in one after another: a drop lands in a known order.
    const outside = await dirs.make()
    await Promise.all(names.map((name) => writeFile(join(outside, name), `%PDF ${name}`)))
    for (const name of names) await rename(join(outside, name), join(root, 'inbox', name))

    const skippedRun = async () => {
      for (let i = 0; i < 400; i++) {
        const skipped = ended.find((run) => run.status === 'skipped')
        if (skipped) return skipped
        await new Promise((r) => setTimeout(r, 25))
      }
      throw new Error('the dropped files were never reported')
    }
    const skipped = await skippedRun()
    const summary = (await runner.summaries())[0]
    expect(summary?.queued).toBe(cap)
    expect(summary?.running).toBe(true)
    release()
    await runner.idle()

    const ran = recorder.calls.map((call) => call.attachments?.[0]?.name)
    const dropped = names.length - ran.length
    // One running and `cap` waiting; the rest were reported, with their count and the first names.
    expect(ran).toHaveLength(cap + 1)
    expect(ran).toEqual(names.slice(0, cap + 1))
    expect(skipped.message).toContain(`${dropped} triggers were not run: at most ${cap} runs wait`)
    expect(skipped.detail).toBe(
      names
        .slice(cap + 1, cap + 4)
        .map((name) => `/inbox/${name}`)
        .join(', '),
    )
    expect(problems.some((p) => p.includes(`Automation "Invoices": ${dropped} triggers were not run`))).toBe(
      true,
    )
    // One run at a time per automation, even with room for four.
    expect(mostRunning).toBe(1)
    expect(ended.filter((run) => run.status === 'ok')).toHaveLength(cap + 1)
  }, 60_000)
})
