import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import {
  DOVECOT,
  DOVECOT_MISSING,
  DOVECOT_REQUIRED,
  type Dovecot,
  type SmtpRecorder,
  startDovecot,
  startSmtpRecorder,
} from '../test/support/mailServers'
import type { BureauServer } from './support/bureauServer'
import { expect, test } from './support/test'
import { axeViolations, snapshot } from './support/ui'

// Settings → E-mail against a real Dovecot and SMTP recorder on 127.0.0.1: add an account, test the
// connection, see the password only as "set", remove the account; axe and screenshots in both themes.
const PASSWORD = 'e2e-mail-password-NEVER-SHOWN-9c1d'

let dovecot: Dovecot
let smtp: SmtpRecorder
let bureau: BureauServer
// In CI (BUREAU_CI, set by .ci/run, which installs Dovecot) a missing Dovecot fails the spec; elsewhere
// the spec is skipped with that reason printed.
if (!DOVECOT && DOVECOT_REQUIRED) throw new Error(DOVECOT_MISSING)
if (!DOVECOT) console.log(`emailSettings.spec.ts: skipped, ${DOVECOT_MISSING}`)
test.skip(!DOVECOT, 'Dovecot not installed (apt-get install dovecot-imapd); install it to run this spec')
test.beforeAll(async ({ sharedHost }) => {
  dovecot = await startDovecot({ alice: PASSWORD })
  smtp = await startSmtpRecorder({ users: { alice: PASSWORD }, deliver: () => {} })
  await sharedHost.reset()
  bureau = sharedHost.bureau
})
test.afterAll(async () => {
  await smtp?.close()
  await dovecot?.stop()
})
test.beforeEach(async () => {
  await bureau.freshChat()
})
// axe is injected as an inline script, which the app's CSP rightly forbids.
test.use({ bypassCSP: true, viewport: { width: 1280, height: 900 } })

async function openEmail(page: Page): Promise<Locator> {
  await page.goto(bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  const section = page.getByRole('region', { name: 'E-mail' })
  await section.scrollIntoViewIfNeeded()
  return section
}

/**
 * axe, and screenshots when asked, at each width in both themes. `npm test` checks the form wide and the
 * saved account narrow; the soak tier (tag @soak) both at both widths.
 */
const TIERS = [
  { title: '', widths: { form: [1280], saved: [400] }, tag: [] as string[] },
  { title: ' (axe at both widths)', widths: { form: [1280, 400], saved: [1280, 400] }, tag: ['@soak'] },
]

async function screenshots(page: Page, section: Locator, name: string, widths: readonly number[]) {
  for (const width of widths) {
    // Tall enough for the whole section: the settings page scrolls inside the app, not the document.
    await page.setViewportSize({ width, height: 1800 })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await section.scrollIntoViewIfNeeded()
      const violations = await axeViolations(page)
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      )
      await snapshot(section, `mail-${name}-${width}-${scheme}`)
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.emulateMedia({ colorScheme: 'light' })
}

for (const { title, widths, tag } of TIERS)
  test(`adds an account against Dovecot, tests it, shows the password only as set, removes it${title}`, {
    tag,
  }, async ({ page }) => {
    const bodies: string[] = []
    page.on('response', async (response) => {
      if (response.url().includes('/ipc/')) bodies.push(await response.text().catch(() => ''))
    })
    const section = await openEmail(page)
    await expect(section.getByText('No accounts yet.')).toBeVisible()
    await section.getByRole('button', { name: 'Add account' }).click()
    const form = section.getByRole('form', { name: 'New e-mail account' })
    await form.getByLabel('Account name').fill('work')
    await form.getByLabel('User name').fill('alice')
    await form.getByLabel('From address').fill('alice@bureau.test')
    await form.getByLabel('Display name').fill('Alice')
    await form.getByLabel('IMAP host').fill('127.0.0.1')
    await form.getByLabel('IMAP port').fill(String(dovecot.port))
    await form.getByLabel('SMTP host').fill('127.0.0.1')
    await form.getByLabel('SMTP port').fill(String(smtp.port))
    await form.getByLabel('Password').fill(PASSWORD)
    await form.getByLabel('IMAP over TLS (off: STARTTLS)').uncheck()
    await form.getByRole('button', { name: 'Test connection' }).click()
    const status = form.getByRole('status')
    await expect(status).toContainText(`IMAP: Logged in to 127.0.0.1:${dovecot.port}`)
    await expect(status).toContainText(`SMTP: Logged in to 127.0.0.1:${smtp.port}; ready to send.`)
    await screenshots(page, section, 'form', widths.form)
    await form.getByRole('button', { name: 'Save account' }).click()

    const item = section.getByRole('list', { name: 'E-mail accounts' }).getByRole('listitem')
    await expect(item).toHaveCount(1)
    await expect(item).toContainText('work')
    await expect(item).toContainText('default')
    await expect(item.getByTestId('email-password-status')).toHaveText(/password set/)
    await screenshots(page, section, 'saved', widths.saved)

    // Reloaded: still set, never shown; the edit form's password box is empty and the stored one works.
    await page.reload()
    const again = await openEmail(page)
    await again.getByRole('button', { name: 'Edit' }).click()
    const edit = again.getByRole('form', { name: 'E-mail account work' })
    await expect(edit.getByLabel('Password')).toHaveValue('')
    await edit.getByRole('button', { name: 'Test connection' }).click()
    await expect(edit.getByRole('status')).toContainText('IMAP: Logged in')
    await edit.getByRole('button', { name: 'Cancel' }).click()
    for (const body of bodies) expect(body).not.toContain(PASSWORD)
    expect(await page.content()).not.toContain(PASSWORD)
    const settingsFile = await readFile(join(bureau.dataDir, 'settings.json'), 'utf8')
    expect(settingsFile).not.toContain(PASSWORD)

    await again.getByRole('button', { name: 'Remove' }).click()
    await expect(again.getByText('No accounts yet.')).toBeVisible()
    const after = await (
      await fetch(`${bureau.url}/ipc/settings.get`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bureau.token}` },
        body: '{}',
      })
    ).json()
    expect(JSON.stringify(after)).not.toContain('email.accounts.work.password')
  })
