import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import type { KnowledgeStatus } from '../src/shared/ipc'
import type { ChatRequestInfo, Turn } from '../test/support/scriptedLlm'
import { scriptedHostForSpec } from './support/scriptedHost'
import { expect, test } from './support/test'
import { axeViolations, snapshot } from './support/ui'

// An answer that searched the workspace shows numbered sources; a click opens the passage.

const LEASE = [
  '# Lease of the flat',
  '',
  '## Rent',
  '',
  'The rent is 950 euros a month, paid on the first working day.',
  '',
  '## Leaving',
  '',
  'The tenant must give three months notice in writing before leaving the flat.',
  '',
].join('\n')

const host = scriptedHostForSpec({
  key: 'sk-scripted-e2e-key-0000',
  env: { BUREAU_INTERACTION_MODE: 'api' },
  index: true,
  afterStart: async () => {
    await mkdir(join(host.bureau.workspace, 'contracts'), { recursive: true })
    await writeFile(join(host.bureau.workspace, 'contracts', 'lease.md'), LEASE)
    await writeFile(
      join(host.bureau.workspace, 'budget.md'),
      '# Budget\n\nMarketing spend is 12,000 euros.\n',
    )
    // The index takes new files in the background (after the watcher's debounce): a question asked
    // before that is answered from what is indexed, without them (the search says when it is incomplete).
    await expect
      .poll(
        async () => {
          const status = (await host.ipc('knowledge.status', undefined)) as KnowledgeStatus
          return status.state === 'idle' && status.queued === 0 ? status.files : -1
        },
        { timeout: 60_000 },
      )
      .toBe(2)
  },
})
// axe is injected as an inline script, which the app's CSP rightly forbids.
test.use({ viewport: { width: 1280, height: 860 }, bypassCSP: true })

/** open_toolset, then knowledge search, then done with an answer citing what the search returned. */
function scriptSearch() {
  let n = 0
  host.llm.setResponder((info: ChatRequestInfo): Turn => {
    n++
    if (n === 1) return { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'knowledge' } }] }
    if (n === 2)
      return {
        toolCalls: [{ name: 'knowledge_search', arguments: { query: 'notice before leaving', top_k: 3 } }],
      }
    const searched = JSON.stringify(info.messages.at(-1) ?? null)
    const cited = searched.includes('/contracts/lease.md') ? '[1]' : '(no source found)'
    return {
      toolCalls: [
        { name: 'done', arguments: { message: `The tenant must give three months notice ${cited}.` } },
      ],
    }
  })
}

async function askAndOpenSource(page: Page) {
  scriptSearch()
  await page.goto(host.bureau.openUrl)
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill('How much notice do I have to give on my lease?')
  await box.press('Enter')
  await expect(page.getByTestId('assistant-text').last()).toContainText('three months notice [1]', {
    timeout: 30_000,
  })
  const sources = page.getByRole('navigation', { name: 'Sources' })
  await expect(sources.getByRole('listitem')).toHaveCount(1)
  const source = sources.getByRole('button', { name: /\[1\] \/contracts\/lease\.md/ })
  await expect(source).toContainText('Leaving')
  return source
}

test('a numbered source under the answer opens the Workspace page at the cited passage', async ({ page }) => {
  const source = await askAndOpenSource(page)
  // The [1] in the answer is a link to its source, which then opens the passage.
  await page.getByTestId('assistant-text').last().getByRole('link', { name: '[1]' }).click()
  await expect(source).toBeFocused()
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await snapshot(page, `know-answer-1280-${scheme}`)
  }
  await source.click()
  const preview = page.getByRole('region', { name: 'Passage of /contracts/lease.md' })
  await expect(preview).toBeVisible()
  const cited = preview.getByTestId('cited-passage')
  await expect(cited).toContainText('three months notice in writing')
  await expect(cited).toBeInViewport()
  // The text around the passage is there too, unmarked.
  await expect(preview).toContainText('950 euros')
  await expect(cited).not.toContainText('950 euros')
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const violations = await axeViolations(page)
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    await snapshot(page, `know-preview-1280-${scheme}`)
  }
  await page.setViewportSize({ width: 400, height: 800 })
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await expect(cited).toBeInViewport()
    await snapshot(page, `know-preview-400-${scheme}`)
  }
})
