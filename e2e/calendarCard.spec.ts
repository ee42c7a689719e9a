import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import type { ChatRequestInfo, Turn } from '../test/support/scriptedLlm'
import { horizontalOverflow } from './support/overflow'
import { ask, scriptedHostForSpec } from './support/scriptedHost'
import { expect, test } from './support/test'
import { axeTiers, axeViolations, snapshot } from './support/ui'

// The calendar toolset's receipt in the chat: the event the model booked, read back from the file, shown
// as a card (day, time with its zone, title, place, attendees) under the step, at three widths and in both
// themes. The write to the workspace .ics asks first (the approval card), and Allow once runs it.

const host = scriptedHostForSpec({
  key: 'sk-scripted-calendar-card-0000',
  env: { BUREAU_INTERACTION_MODE: 'api' },
  afterStart: (started) =>
    started.ipc('settings.update', { approvals: { rules: { calendar: 'ask' } } }).then(() => {}),
})
// axe is injected as an inline script, which the app's CSP rightly forbids.
test.use({ bypassCSP: true, viewport: { width: 1280, height: 860 } })

interface OpenAiMessage {
  role: string
  tool_calls?: Array<{ function: { name: string } }>
}
const toolNames = (info: ChatRequestInfo) =>
  (info.tools as Array<{ function?: { name?: string } }>).map((t) => t.function?.name)
const calledTools = (info: ChatRequestInfo) =>
  (info.messages as OpenAiMessage[]).flatMap((m) => (m.tool_calls ?? []).map((c) => c.function.name))

const EVENT = {
  calendar: '/calendar/team.ics',
  summary: 'Quarterly budget review',
  start: '2026-07-14T10:00',
  end: '2026-07-14T11:30',
  time_zone: 'Europe/Paris',
  location: 'Room 4, second floor',
  attendees: [{ email: 'marta.reyes@example.com', name: 'Marta Reyes' }, 'bob@example.com'],
}

function scriptBooking() {
  host.llm.setResponder((info): Turn => {
    if (!calledTools(info).includes('calendar_create_event')) {
      if (!toolNames(info).includes('calendar_create_event'))
        return { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'calendar' } }] }
      return { toolCalls: [{ name: 'calendar_create_event', arguments: EVENT }] }
    }
    return { toolCalls: [{ name: 'done', arguments: { message: 'Booked the budget review.' } }] }
  })
}

const eventCard = (page: Page) => page.getByRole('article', { name: `Event ${EVENT.summary}` })

for (const { title, tag, axeAt } of axeTiers([1280, 800, 400])) {
  test(`the booked event shows as a card with its day, time, title and attendees; overflow checked at three widths, axe clean${title}`, {
    tag,
  }, async ({ page }) => {
    scriptBooking()
    await page.goto(host.bureau.openUrl)
    await ask(page, 'Book the quarterly budget review with Marta and Bob on July 14 at 10')

    const approval = page.getByRole('alertdialog', { name: 'Allow this action?' })
    await expect(approval).toBeVisible({ timeout: 20_000 })
    await approval.getByRole('button', { name: 'Allow once' }).click()
    await expect(page.getByTestId('assistant-text').last()).toContainText('Booked the budget review', {
      timeout: 20_000,
    })

    const card = eventCard(page)
    await expect(card).toBeVisible()
    await expect(card).toContainText(/Jul 14, 2026|14 Jul 2026/)
    await expect(card).toContainText('Tue')
    await expect(card).toContainText('10:00–11:30 (Europe/Paris)')
    await expect(card).toContainText(EVENT.summary)
    await expect(card).toContainText('Room 4, second floor')
    await expect(card).toContainText('With Marta Reyes, bob@example.com')
    await expect(card).toContainText('/calendar/team.ics')
    // What the card shows is what was stored: 10:00 in Paris in July is 08:00 UTC.
    const ics = readFileSync(join(host.bureau.workspace, 'calendar', 'team.ics'), 'utf8')
    expect(ics).toContain('SUMMARY:Quarterly budget review')
    expect(ics).toMatch(/DTSTART;TZID=Europe\/Paris:20260714T100000/)

    for (const width of [1280, 800, 400]) {
      await page.setViewportSize({ width, height: 860 })
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        await card.scrollIntoViewIfNeeded()
        await snapshot(page, `calendar-card-${width}-${scheme}`)
        const violations = axeAt(width, scheme) ? await axeViolations(page) : []
        expect(
          violations,
          violations
            .map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
            .join('\n'),
        ).toEqual([])
      }
      expect(await horizontalOverflow(page)).toEqual([])
      // The day and the title never run into each other (at 400 px the body goes under the day).
      const day = await card.locator('.event-card-day').boundingBox()
      const title = await card.locator('.event-card-title').boundingBox()
      const apart =
        day &&
        title &&
        (day.x + day.width <= title.x || title.y >= day.y + day.height || title.x + title.width <= day.x)
      expect(
        apart,
        `day ${JSON.stringify(day)} and title ${JSON.stringify(title)} overlap at ${width} px`,
      ).toBe(true)
      const box = await card.boundingBox()
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true)
    }
  })
}
